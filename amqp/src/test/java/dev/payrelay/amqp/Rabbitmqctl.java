package dev.payrelay.amqp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the local {@code rabbitmqctl} to act on the broker from outside the client. */
public final class Rabbitmqctl {

  private Rabbitmqctl() {}

  public static boolean isAvailable() {
    try {
      return run(List.of("rabbitmqctl", "-q", "status")) != null;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Force-closes (320 CONNECTION_FORCED) every connection whose client-provided name is {@code
   * name}, found via {@code list_connections pid client_properties}.
   *
   * @return how many connections were closed
   */
  public static int closeConnectionNamed(String name) throws IOException {
    String listing =
        run(
            List.of(
                "rabbitmqctl",
                "-q",
                "list_connections",
                "--no-table-headers",
                "pid",
                "client_properties"));
    int closed = 0;
    for (String line : listing.split("\n")) {
      if (line.contains("{\"connection_name\",\"" + name + "\"}")) {
        String pid = line.substring(0, line.indexOf('\t')).trim();
        run(List.of("rabbitmqctl", "-q", "close_connection", pid, "payrelay test: forced close"));
        closed++;
      }
    }
    return closed;
  }

  private static String run(List<String> command) throws IOException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IOException("timed out: " + command);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      throw new IOException("interrupted: " + command, e);
    }
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (process.exitValue() != 0) {
      throw new IOException(command + " exited " + process.exitValue() + ": " + output);
    }
    return output;
  }
}
