package dev.payrelay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class RefundCreateInputTest {

  @Test
  void badInput_isRefusedFirst_andNoIdempotencyKeyIsPrinted() {
    String[][] cases = {
      {"--amount-minor", "0", "--reason", "customer asked"},
      {"--amount-minor", "-5", "--reason", "customer asked"},
      {"--amount-minor", "100", "--reason", " "},
      {"--amount-minor", "100", "--reason", "x".repeat(501)},
    };
    for (String[] c : cases) {
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      CommandLine cli = PayrelayCommand.commandLine(new PayrelayCommand(Map.of()));
      cli.setOut(new PrintWriter(out));
      cli.setErr(new PrintWriter(err));
      String[] args = new String[3 + c.length];
      args[0] = "refund";
      args[1] = "create";
      args[2] = "pay_x";
      System.arraycopy(c, 0, args, 3, c.length);

      assertThat(cli.execute(args)).as(String.join(" ", c)).isEqualTo(AdminClient.REFUSED);
      assertThat(out.toString() + err).as(String.join(" ", c)).doesNotContain("Idempotency-Key ");
      assertThat(err.toString()).as(String.join(" ", c)).containsPattern("amountMinor|reason");
    }
  }
}
