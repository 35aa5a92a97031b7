package dev.payrelay.app.config.binder;

import java.util.List;

/**
 * The {@code PAYRELAY_*} variables read outside the binder, before or beside the JVM, which the
 * unknown-name check accepts and the reference lists: the launcher's JVM flags, the bench script's
 * and the test harness's own. payrelay's processes do not read them.
 *
 * @param name the variable
 * @param readBy what reads it
 * @param description what it does
 */
public record ExternalVariables(String name, String readBy, String description) {

  /** Every such variable. */
  public static final List<ExternalVariables> ALL =
      List.of(
          new ExternalVariables(
              "PAYRELAY_HEAP",
              "./payrelay, deploy/local/jvm.sh",
              "The JVM's maximum heap (-Xmx), e.g. 256m (the default) or 1g."),
          new ExternalVariables(
              "PAYRELAY_JAVA_OPTS",
              "./payrelay, deploy/local/jvm.sh",
              "The JVM's other flags; default -XX:TieredStopAtLevel=1 (none for api), replaced when"
                  + " set."),
          new ExternalVariables(
              "PAYRELAY_JVM",
              "deploy/local/jvm.sh",
              "Set by pick_java: java and its flags without -jar, for scripts that start JVMs."),
          new ExternalVariables(
              "PAYRELAY_SKIP_SETUP",
              "./payrelay, deploy/bench/run.sh",
              "1 skips deploy/local/setup.sh (installing and starting MariaDB, RabbitMQ, Temporal)."),
          new ExternalVariables(
              "PAYRELAY_BENCH_DIR",
              "deploy/bench/run.sh",
              "Where bench runs write their results; default .bench."),
          new ExternalVariables(
              "PAYRELAY_BENCH_JFR",
              "deploy/bench/run.sh",
              "1 records each measured process with Java Flight Recorder."),
          new ExternalVariables(
              "PAYRELAY_BENCH_DB_SERVER",
              "deploy/bench/run.sh",
              "The database server a bench run creates its database on; default"
                  + " jdbc:mysql://127.0.0.1:3306/."),
          new ExternalVariables(
              "PAYRELAY_TEST_DB_URL",
              "the tests (TestDatabase)",
              "The database server the tests create their databases on."),
          new ExternalVariables(
              "PAYRELAY_TEST_DB_USER", "the tests (TestDatabase)", "That server's user; root."),
          new ExternalVariables(
              "PAYRELAY_TEST_DB_PASSWORD",
              "the tests (TestDatabase)",
              "That user's password; empty."),
          new ExternalVariables(
              "PAYRELAY_TEST_TEMPORAL_ADDRESS",
              "the tests (RealTemporal)",
              "A running Temporal frontend for the end-to-end tests instead of their own."));

  /** Whether {@code variable} is one of them. */
  public static boolean isOne(String variable) {
    return ALL.stream().anyMatch(v -> v.name().equals(variable));
  }
}
