package dev.payrelay.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.domain.DurationSyntax;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.TypeConversionException;

class DurationsTest {

  private final Durations durations = new Durations();

  @Test
  void aBareNumberOrIso_isRefused_becauseAUnitIsNeverImplied() {
    for (String bad : List.of("30", "PT30M", "30 s", "1.5m", "-5m")) {
      assertThatThrownBy(() -> durations.convert(bad))
          .as(bad)
          .isInstanceOf(TypeConversionException.class)
          .hasMessageContaining("must be " + DurationSyntax.WORDS);
    }
  }

  @Test
  void theConfigurationsSyntax_isRead_inAnyCase_asTheConfigurationReadsIt() {
    assertThat(durations.convert("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(durations.convert("30s")).isEqualTo(Duration.ofSeconds(30));
    assertThat(durations.convert("5S")).isEqualTo(Duration.ofSeconds(5));
    assertThat(durations.convert("10m")).isEqualTo(Duration.ofMinutes(10));
    assertThat(durations.convert("7d")).isEqualTo(Duration.ofDays(7));
    assertThat(durations.convert("7d"))
        .isEqualTo(dev.payrelay.app.config.binder.Syntax.duration("7d"));
  }

  @Test
  void extendDeadline_by30_isRefusedWithTheSyntax_beforeAnyCall() {
    StringWriter err = new StringWriter();
    CommandLine cli = PayrelayCommand.commandLine(new PayrelayCommand(Map.of()));
    cli.setOut(new PrintWriter(new StringWriter()));
    cli.setErr(new PrintWriter(err));
    int exit =
        cli.execute("payment", "extend-deadline", "pay_x", "--by", "30", "--reason", "holiday");
    assertThat(exit).isEqualTo(2);
    assertThat(err.toString()).contains("'30' must be a duration: a whole number and its unit");
  }
}
