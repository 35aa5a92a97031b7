package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtime classpath (what the shaded {@code payrelay.jar} is built from, written by the build's
 * {@code runtime-classpath} step in {@code dist}) loads what the API loads at start. Tests run on
 * the test classpath, where a test-scoped jar can stand in for a runtime one: a module's
 * test-scoped snakeyaml once made the jar's {@code dev} and {@code api} hang at start with {@code
 * NoClassDefFoundError} while every test passed.
 */
class RuntimeClasspathTest {

  @Test
  void runtimeClasspath_loadsTheApisOpenApiDocument_inAChildJvm(@TempDir Path dir)
      throws Exception {
    String runtime =
        Files.readString(
                Path.of("..", "dist", "target", "runtime-classpath.txt"), StandardCharsets.UTF_8)
            .strip();
    String classpath = runtime;
    Path probe = dir.resolve("Probe.java");
    Files.writeString(
        probe,
        """
        public class Probe {
          public static void main(String[] args) throws Exception {
            var load = Class.forName("dev.payrelay.api.http.OpenApiDocument").getDeclaredMethod("load");
            load.setAccessible(true);
            load.invoke(null);
            System.out.println("loaded");
          }
        }
        """);
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process child =
        new ProcessBuilder(List.of(java.toString(), "-cp", classpath, probe.toString()))
            .redirectErrorStream(true)
            .start();
    String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

    assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(child.exitValue()).as(output).isZero();
    assertThat(output).contains("loaded");
  }
}
