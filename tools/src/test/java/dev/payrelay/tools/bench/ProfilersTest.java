package dev.payrelay.tools.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link Profilers}: which command lines mark a run as profiled. */
class ProfilersTest {

  @Test
  void profilerAndAgentFlags_areFound_andOtherFlagsAreNot() {
    List<String> args =
        List.of(
            "-Xmx512m",
            "-XX:StartFlightRecording=settings=profile,filename=/tmp/w.jfr",
            "-agentpath:/opt/async-profiler/lib/libasyncProfiler.so=start,event=cpu",
            "-XX:+UseG1GC",
            "-javaagent:/x/agent.jar",
            "-jar",
            "payrelay.jar");

    assertThat(Profilers.flags(args))
        .containsExactly(
            "-XX:StartFlightRecording=settings=profile,filename=/tmp/w.jfr",
            "-agentpath:/opt/async-profiler/lib/libasyncProfiler.so=start,event=cpu",
            "-javaagent:/x/agent.jar");
    assertThat(Profilers.flags(List.of("-Xmx512m", "-XX:+UseG1GC", "-jar", "p.jar"))).isEmpty();
  }

  @Test
  void theProfilerOption_marksTheRun() {
    BenchResult.Profiling p = Profilers.detect("jfr", List.of());

    assertThat(p.profiled()).isTrue();
    assertThat(p.reasons()).contains("--profiler jfr");
  }

  @Test
  void aMeasuredProcessStartedWithJfr_isFoundByItsCommandLine() throws Exception {
    // sh takes the word after the script as $0: it stays on the command line for the probe.
    Process child =
        new ProcessBuilder("sh", "-c", "sleep 60", "-XX:StartFlightRecording=filename=/dev/null")
            .start();
    try {
      BenchResult.Profiling p = Profilers.detect(null, List.of(child.pid()));

      assertThat(p.profiled()).isTrue();
      assertThat(p.reasons())
          .contains("pid " + child.pid() + ": -XX:StartFlightRecording=filename=/dev/null");
    } finally {
      child.destroyForcibly();
    }
  }
}
