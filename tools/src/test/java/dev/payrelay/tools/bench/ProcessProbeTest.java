package dev.payrelay.tools.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/** {@link ProcessProbe} on this JVM, read through {@code /proc} like any other process. */
class ProcessProbeTest {

  private static final long SELF = ProcessHandle.current().pid();

  @Test
  void readingThisProcess_givesItsCpuAndResidentMemory() {
    ProcessProbe.Reading r = ProcessProbe.read(SELF).orElseThrow();

    assertThat(r.pid()).isEqualTo(SELF);
    assertThat(r.cpuSeconds()).isPositive();
    assertThat(r.rssBytes()).isGreaterThan(1024L * 1024);
  }

  @Test
  void aListeningSocket_leadsToThisProcess_andAClosedOneToNone() throws Exception {
    int port;
    try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = listener.getLocalPort();
      assertThat(ProcessProbe.listening(port)).containsExactly(SELF);
    }
    assertThat(ProcessProbe.listening(port)).isEmpty();
  }

  @Test
  void byName_findsThisJvm_andNoProcessOfAnUnknownName() throws Exception {
    String name = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/self/comm")).strip();

    assertThat(ProcessProbe.named(name, "no-such-process-name")).contains(SELF);
    assertThat(ProcessProbe.named("no-such-process-name")).isEmpty();
  }

  @Test
  void aProcessThatIsGone_readsAsEmpty() throws Exception {
    Process p = new ProcessBuilder("true").start();
    p.waitFor();

    assertThat(ProcessProbe.read(p.pid())).isEmpty();
  }
}
