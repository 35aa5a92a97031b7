package dev.payrelay.tools.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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
  void theCpuOfThreadsNamedConsumer_isCountedApart_andInTheWhole() throws Exception {
    double before = ProcessProbe.read(SELF).orElseThrow().consumerCpuSeconds();
    CountDownLatch spent = new CountDownLatch(1);
    CountDownLatch read = new CountDownLatch(1);
    Thread busy =
        Thread.ofPlatform()
            .name(ProcessProbe.CONSUMER_THREADS + "notifications-1")
            .start(
                () -> {
                  // Spins until it has used 200 ms of CPU, then stays alive until it was read.
                  var threads = ManagementFactory.getThreadMXBean();
                  while (threads.getCurrentThreadCpuTime() < 200_000_000L) {
                    Thread.onSpinWait();
                  }
                  spent.countDown();
                  try {
                    read.await();
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                });
    assertThat(spent.await(60, TimeUnit.SECONDS)).isTrue();

    ProcessProbe.Reading r = ProcessProbe.read(SELF).orElseThrow();
    read.countDown();
    busy.join();

    assertThat(r.consumerCpuSeconds() - before).isGreaterThanOrEqualTo(0.15);
    assertThat(r.cpuSeconds()).isGreaterThan(r.consumerCpuSeconds());
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
