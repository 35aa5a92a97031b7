package dev.payrelay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** A failed admin command given {@code --json} says so as JSON on stdout, with its exit code. */
class JsonErrorTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void unreachableAdminApi_withJson_printsTheErrorAsJson_andExitsThree() throws Exception {
    Map<String, String> env = unreachable();

    Run json = run(env, "refund", "show", "rfd_1", "--json");
    Run text = run(env, "refund", "show", "rfd_1");

    assertThat(json.exit()).isEqualTo(AdminClient.UNAVAILABLE).isEqualTo(text.exit());
    JsonNode error = JSON.readTree(json.out()).path("error");
    assertThat(error.path("exitCode").asInt()).isEqualTo(AdminClient.UNAVAILABLE);
    assertThat(error.path("message").asText()).isNotBlank();
    assertThat(json.err()).contains("payrelay: " + error.path("message").asText());
    assertThat(text.out()).as("without --json stdout stays empty").isEmpty();
  }

  @Test
  void inputRefusedBeforeAnyRequest_withJson_printsTheErrorAsJson_andExitsTwo() throws Exception {
    Run json =
        run(
            unreachable(),
            "refund",
            "create",
            "pay_1",
            "--amount-minor",
            "0",
            "--reason",
            "r",
            "--key",
            "k1",
            "--json");

    assertThat(json.exit()).isEqualTo(AdminClient.REFUSED);
    assertThat(JSON.readTree(json.out()).path("error").path("exitCode").asInt())
        .isEqualTo(AdminClient.REFUSED);
  }

  /** An admin URL on a port nothing listens on, and a key so none is looked up. */
  private static Map<String, String> unreachable() throws IOException {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    return Map.of(
        "PAYRELAY_ADMIN_URL", "http://127.0.0.1:" + port, "PAYRELAY_API_KEY", "k_test_unused");
  }

  private record Run(int exit, String out, String err) {}

  private static Run run(Map<String, String> env, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = PayrelayCommand.commandLine(new PayrelayCommand(env));
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    int exit = cli.execute(args);
    return new Run(exit, out.toString(), err.toString());
  }
}
