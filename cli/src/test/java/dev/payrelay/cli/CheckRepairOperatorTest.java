package dev.payrelay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class CheckRepairOperatorTest {

  /** Nothing listens there: a check that got past its input would fail on the database instead. */
  private static final Map<String, String> ENV =
      Map.of("PAYRELAY_DB_URL", "jdbc:mariadb://127.0.0.1:1/none");

  @Test
  void repair_withAnOperatorOutsideTheApiKeysRule_isRefusedBeforeAnyWork() {
    for (String operator : new String[] {"alice smith", "ops; drop", "a".repeat(65), "名前"}) {
      StringWriter err = new StringWriter();
      int exit = run(err, "check", "--repair", "--operator", operator);
      assertThat(exit).as(operator).isEqualTo(CheckCommand.BAD_INPUT);
      assertThat(err.toString())
          .as(operator)
          .contains("--operator: operator must match [A-Za-z0-9._@-]{1,64}, got: " + operator);
    }
  }

  @Test
  void repair_withAnOperatorInTheRule_getsPastTheInput() {
    StringWriter err = new StringWriter();
    run(err, "check", "--repair", "--operator", "alice.smith@example.com");
    assertThat(err.toString()).doesNotContain("operator must match");
  }

  private static int run(StringWriter err, String... args) {
    CommandLine cli = PayrelayCommand.commandLine(new PayrelayCommand(ENV));
    cli.setOut(new PrintWriter(new StringWriter()));
    cli.setErr(new PrintWriter(err));
    return cli.execute(args);
  }
}
