package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code deploy/local/jvm.sh}: the JVM flags {@code ./payrelay}, the benchmark script and (for the
 * compiler) the image run payrelay with, read by running the script in bash.
 */
class LauncherJvmTest {

  private static final Path ROOT = Path.of("..");

  @Test
  void defaults_areASmallHeap_theSerialCollector_andTheClientCompilerOnly() throws Exception {
    List<String> flags = flags(Map.of());

    assertThat(flags.getFirst()).endsWith("/bin/java");
    assertThat(flags)
        .contains(
            "-Xmx256m",
            "-XX:+UseSerialGC",
            "-XX:+ExitOnOutOfMemoryError",
            "-XX:TieredStopAtLevel=1");
  }

  @Test
  void api_runsTheOptimizingCompilerByDefault_everyOtherCommandTheClientCompilerOnly()
      throws Exception {
    assertThat(flags("api", Map.of()))
        .contains("-Xmx256m", "-XX:+UseSerialGC")
        .noneMatch(f -> f.startsWith("-XX:TieredStopAtLevel"));
    for (String command : List.of("dev", "worker", "bench", "sandbox", "")) {
      assertThat(flags(command, Map.of())).as(command).contains("-XX:TieredStopAtLevel=1");
    }
    assertThat(flags("api", Map.of("PAYRELAY_JAVA_OPTS", "-XX:TieredStopAtLevel=1")))
        .contains("-XX:TieredStopAtLevel=1");
  }

  @Test
  void aHeapThatIsNotASize_isRefusedWithExit2_namingTheVariable() throws Exception {
    for (String bad : List.of("512m ", "-Xmx1g", "lots")) {
      Result r = run(Map.of("PAYRELAY_HEAP", bad));

      assertThat(r.exit()).as(bad).isEqualTo(2);
      assertThat(r.output()).as(bad).contains("PAYRELAY_HEAP must be a size", "'" + bad + "'");
    }
  }

  @Test
  void javaOpts_replaceTheCompilerDefault_evenWhenEmpty_andHeapSetsXmx() throws Exception {
    assertThat(flags(Map.of("PAYRELAY_JAVA_OPTS", "")))
        .noneMatch(f -> f.startsWith("-XX:TieredStopAtLevel"));
    assertThat(flags(Map.of("PAYRELAY_JAVA_OPTS", "-XX:+AlwaysPreTouch -Dpayrelay.x=1")))
        .contains("-XX:+AlwaysPreTouch", "-Dpayrelay.x=1")
        .noneMatch(f -> f.startsWith("-XX:TieredStopAtLevel"));
    assertThat(flags(Map.of("PAYRELAY_HEAP", "1g"))).contains("-Xmx1g").doesNotContain("-Xmx256m");
  }

  @Test
  void theImage_runsTheSameCompilerAsTheLauncher() throws Exception {
    String image =
        Files.readAllLines(ROOT.resolve("Dockerfile")).stream()
            .filter(l -> l.startsWith("ENV JAVA_TOOL_OPTIONS="))
            .reduce((a, b) -> b)
            .orElseThrow();

    assertThat(image).contains("-XX:TieredStopAtLevel=1");
    String compose = Files.readString(ROOT.resolve("docker-compose.yml"));
    String api = compose.substring(compose.indexOf("\n  payrelay-api:"));
    api = api.substring(0, api.indexOf("\n  payrelay-worker:"));
    assertThat(api)
        .contains("JAVA_TOOL_OPTIONS: \"-XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError\"")
        .doesNotContain("TieredStopAtLevel");
  }

  /** What pick_java leaves in PAYRELAY_JVM, one flag per element, with {@code env} set. */
  private static List<String> flags(Map<String, String> env)
      throws IOException, InterruptedException {
    return flags("", env);
  }

  /** As {@link #flags(Map)} for the payrelay command {@code command} ({@code pick_java api}). */
  private static List<String> flags(String command, Map<String, String> env)
      throws IOException, InterruptedException {
    Result r = run(command, env);
    assertThat(r.exit()).as(r.output()).isZero();
    return Arrays.asList(r.output().strip().split("\n"));
  }

  private record Result(int exit, String output) {}

  private static Result run(Map<String, String> env) throws IOException, InterruptedException {
    return run("", env);
  }

  private static Result run(String command, Map<String, String> env)
      throws IOException, InterruptedException {
    ProcessBuilder pb =
        new ProcessBuilder(
                "bash",
                "-c",
                "set -euo pipefail; source deploy/local/jvm.sh; pick_java \"$0\";"
                    + " printf '%s\\n' \"${PAYRELAY_JVM[@]}\"",
                command)
            .directory(ROOT.toFile())
            .redirectErrorStream(true);
    pb.environment().remove("PAYRELAY_JAVA_OPTS");
    pb.environment().remove("PAYRELAY_HEAP");
    pb.environment().putAll(env);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new Result(p.exitValue(), out);
  }
}
