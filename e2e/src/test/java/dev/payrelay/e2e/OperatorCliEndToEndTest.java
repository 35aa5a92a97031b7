package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.OPERATOR_ACTION;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.payrelay.api.auth.ApiKey;
import dev.payrelay.api.auth.ApiKeys;
import dev.payrelay.api.auth.Role;
import dev.payrelay.cli.AdminClient;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The operator CLI goes through the admin API: the key's operator is recorded, the workflow's
 * verdict decides the exit code, and a missing or too small key is refused — on a whole payrelay
 * with the real Temporal dev server.
 */
class OperatorCliEndToEndTest {

  private static final ApiKeys.Issued READER =
      ApiKeys.issue(Role.READ, "rita", Set.of(ApiKey.ALL_TENANTS));

  private static PayrelayHarness payrelay;

  @BeforeAll
  static void start() throws Exception {
    payrelay =
        new PayrelayHarness(
            OperatorCliEndToEndTest.class,
            Map.of("PAYRELAY_API_KEYS", PayrelayHarness.KEY.line() + ";" + READER.line()));
  }

  @AfterAll
  static void stop() throws Exception {
    payrelay.close();
  }

  /** A 10.50 payment paid 10.00 at the channel: NEEDS_ATTENTION. */
  private static String underpaid() throws Exception {
    String paymentId = payrelay.createPayment(1050, "USD", "c1");
    payrelay.payAtSandbox(paymentId, "{\"amount\":\"10.00\"}");
    await()
        .atMost(Duration.ofSeconds(30))
        .ignoreExceptions()
        .until(() -> "NEEDS_ATTENTION".equals(payrelay.paymentState(paymentId)));
    return paymentId;
  }

  @Test
  void resolve_exitsOnTheWorkflowsVerdict_recordingTheKeysOperator() throws Exception {
    String paymentId = underpaid();

    CliRun refused =
        cli(payrelay.env, "resolve", paymentId, "--action", "CLOSE", "--reason", "buyer asked");
    CliRun applied =
        cli(
            payrelay.env,
            "resolve",
            paymentId,
            "--action",
            "ACCEPT_AS_PAID",
            "--reason",
            "channel confirmed 10.00 by phone",
            "--json");

    assertThat(refused.exit()).as(refused.err()).isEqualTo(AdminClient.REFUSED);
    assertThat(refused.out()).contains("CLOSE on " + paymentId + " by alice: REJECTED");
    assertThat(applied.exit()).as(applied.err()).isEqualTo(AdminClient.OK);
    assertThat(applied.out()).contains("\"result\" : \"APPLIED\"");
    assertThat(
            payrelay
                .stack
                .services()
                .database()
                .dsl()
                .fetchValue(PAYMENT_ORDER.STATUS, PAYMENT_ORDER.PAYMENT_ID.eq(paymentId)))
        .isEqualTo("PAID");
    assertThat(
            payrelay
                .stack
                .services()
                .database()
                .dsl()
                .selectDistinct(OPERATOR_ACTION.OPERATOR_NAME)
                .from(OPERATOR_ACTION)
                .where(OPERATOR_ACTION.TARGET_ID.eq(paymentId))
                .fetch(OPERATOR_ACTION.OPERATOR_NAME))
        .containsExactly("alice");
  }

  @Test
  void withoutAKey_orWithAReadKey_aFixIsNotAllowed_andNothingIsSignalled() throws Exception {
    String paymentId = underpaid();
    Map<String, String> noKey = new HashMap<>(payrelay.env);
    noKey.remove("PAYRELAY_API_KEY");
    noKey.put("PAYRELAY_DATA_DIR", Files.createTempDirectory("no-dev-key").toString());
    Map<String, String> reader = new HashMap<>(payrelay.env);
    reader.put("PAYRELAY_API_KEY", READER.token());
    Map<String, String> forged = new HashMap<>(payrelay.env);
    forged.put("PAYRELAY_API_KEY", ApiKeys.issue(Role.ADMIN, "eve", Set.of("*")).token());
    String[] fix = {"resolve", paymentId, "--action", "ACCEPT_AS_PAID", "--reason", "r"};

    CliRun none = cli(noKey, fix);
    CliRun read = cli(reader, fix);
    CliRun unknown = cli(forged, fix);
    CliRun readList = cli(reader, "outbox", "list", "--status", "SENT", "--json");

    assertThat(none.exit()).isEqualTo(AdminClient.NOT_ALLOWED);
    assertThat(none.err()).contains("no API key: set PAYRELAY_API_KEY");
    assertThat(read.exit()).isEqualTo(AdminClient.NOT_ALLOWED);
    assertThat(read.err()).contains("403").contains("this needs operate");
    assertThat(unknown.exit()).isEqualTo(AdminClient.NOT_ALLOWED);
    assertThat(unknown.err()).contains("401").contains("the key sent came from PAYRELAY_API_KEY");
    assertThat(readList.exit()).as(readList.err()).isZero();
    assertThat(readList.out()).contains(paymentId);
    assertThat(
            payrelay
                .stack
                .services()
                .database()
                .dsl()
                .fetchCount(OPERATOR_ACTION, OPERATOR_ACTION.TARGET_ID.eq(paymentId)))
        .isZero();
  }

  @Test
  void anUnreachableAdminApi_isUnavailable_namingWhere() {
    Map<String, String> env = new HashMap<>(payrelay.env);
    env.put("PAYRELAY_ADMIN_URL", "http://127.0.0.1:9");

    CliRun r = cli(env, "outbox", "list");

    assertThat(r.exit()).isEqualTo(AdminClient.UNAVAILABLE);
    assertThat(r.err()).contains("the admin API at http://127.0.0.1:9 is unreachable");
  }

  private static CliRun cli(Map<String, String> env, String... args) {
    return CliRun.of(env, args);
  }
}
