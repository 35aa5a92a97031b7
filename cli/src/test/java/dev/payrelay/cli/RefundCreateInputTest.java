package dev.payrelay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code payrelay refund create}'s refusals of its own input, before any request is sent. */
class RefundCreateInputTest {

  @Test
  void badInput_isRefusedFirst_andNoIdempotencyKeyIsPrinted() {
    String[][] cases = {
      {"--amount-minor", "0", "--reason", "customer asked"},
      {"--amount-minor", "-5", "--reason", "customer asked"},
      {"--amount-minor", "100", "--reason", " "},
      {"--amount-minor", "100", "--reason", "x".repeat(501)},
      {"--amount", "0", "--reason", "customer asked"},
      {"--amount", "0.00", "--reason", "customer asked"},
      {"--amount", "-1", "--reason", "customer asked"},
      {"--amount", "ten", "--reason", "customer asked"},
    };
    for (String[] c : cases) {
      Run run = create(c);

      assertThat(run.code()).as(String.join(" ", c)).isEqualTo(AdminClient.REFUSED);
      assertThat(run.out() + run.err()).as(String.join(" ", c)).doesNotContain("Idempotency-Key ");
      assertThat(run.err()).as(String.join(" ", c)).containsPattern("reason|" + c[0] + " ");
    }
  }

  @Test
  void anAmountThatIsNotMoreThanZero_orNotPlainDigits_isRefused_namingItsOptionAndTheRule() {
    assertThat(refusal("--amount-minor", "0"))
        .isEqualTo(
            "payrelay: --amount-minor 0: must be a whole number more than zero, in minor units"
                + " (e.g. 1050 for 10.50 USD)");
    assertThat(refusal("--amount-minor", "-1"))
        .contains("--amount-minor -1: must be a whole number more than zero");
    assertThat(refusal("--amount", "0"))
        .isEqualTo(
            "payrelay: --amount 0: must be digits with an optional fraction, more than zero, in"
                + " major units of the payment's currency (e.g. 10.50 for USD, 500 for JPY)");
    for (String notPlain : new String[] {"-1", "1e3", "+5", ".5", "5.", "1,00"}) {
      assertThat(refusal("--amount", notPlain))
          .as(notPlain)
          .contains("--amount " + notPlain + ": must be digits with an optional fraction");
    }
  }

  @Test
  void picocliRefusals_areNotPrefixedTwice() {
    Run run = create("--amount", "1", "--amount-minor", "100", "--reason", "r");

    assertThat(run.code()).isEqualTo(2);
    assertThat(run.err()).startsWith("payrelay: --amount").doesNotContain("Error:");
  }

  @Test
  void anAmountPastALong_isRefusedInOneLine_withoutTheUsageText() {
    Run run = create("--amount-minor", "9".repeat(30), "--reason", "r");

    assertThat(run.code()).isEqualTo(2);
    assertThat(run.err())
        .startsWith("payrelay: Invalid value for option '--amount-minor': '" + "9".repeat(30))
        .contains("See 'payrelay refund create --help' for its options.")
        .doesNotContain("Usage:");
  }

  /** The one-line refusal of {@code option value}, after checking its exit code. */
  private static String refusal(String option, String value) {
    Run run = create(option, value, "--reason", "r");
    assertThat(run.code()).isEqualTo(AdminClient.REFUSED);
    return run.err().strip();
  }

  private record Run(int code, String out, String err) {}

  /** Runs {@code payrelay refund create pay_x <options>} in this JVM, with no API behind it. */
  private static Run create(String... options) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = PayrelayCommand.commandLine(new PayrelayCommand(Map.of()));
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    String[] args = new String[3 + options.length];
    args[0] = "refund";
    args[1] = "create";
    args[2] = "pay_x";
    System.arraycopy(options, 0, args, 3, options.length);
    int code = cli.execute(args);
    return new Run(code, out.toString(), err.toString());
  }
}
