package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.ENTITLEMENT;
import static dev.payrelay.ledger.db.generated.Tables.OPERATOR_ACTION;
import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.cli.CheckCommand;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.db.generated.tables.records.OperatorActionRecord;
import dev.payrelay.ledger.testing.BrokenStates;
import dev.payrelay.temporal.client.PaymentListing;
import dev.payrelay.temporal.client.PaymentListingRow;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * {@code payrelay check --repair} against a whole payrelay on the real servers: a healthy fulfilled
 * payment checks clean (exit 0); broken afterwards, it is found, and the repair re-drives it
 * through its workflow with the same event id and audits it. The worker's own grant repair is off,
 * so only the check can repair. Ordered: the first test asserts that the whole database is clean,
 * and the last leaves a DEAD event behind.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PaymentCheckRepairEndToEndTest {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();

  private static PayrelayHarness payrelay;
  private static DSLContext dsl;
  private static PaymentListing listing;

  @BeforeAll
  static void start() throws Exception {
    payrelay =
        new PayrelayHarness(
            PaymentCheckRepairEndToEndTest.class,
            Map.of(
                "PAYRELAY_GRANT_REPAIR", "0s",
                // The check and its repairs alone: no reconciliation run recording exceptions.
                "PAYRELAY_RECONCILIATION_DAILY", "false",
                "PAYRELAY_PUBLISH_RETRY", "PaymentConfirmed=200ms/200ms/2"));
    dsl = payrelay.stack.services().database().dsl();
    listing = new PaymentListing(payrelay.stack.temporal().client());
  }

  @AfterAll
  static void stop() throws Exception {
    payrelay.close();
  }

  @Test
  @Order(1)
  void fulfilledPayment_checksClean_thenLosesItsGrants_andCheckRepairRegrantsThroughANewRun()
      throws Exception {
    String id = fulfilled("course-x", "course-y");
    String confirmed = confirmedEventId(id);

    CliRun clean = cli("check", "--json");
    assertThat(clean.exit()).as(clean.out() + clean.err()).isEqualTo(CheckCommand.CLEAN);
    assertThat(JSON.readTree(clean.out()).path("findings")).isEmpty();

    dsl.deleteFrom(ENTITLEMENT).where(ENTITLEMENT.PURCHASE_ID.eq(id)).execute();
    assertFoundOnly("PAID_WITHOUT_ENTITLEMENT", confirmed, "REGRANT");

    CliRun repaired = repairAll("alice");
    assertThat(JSON.readTree(repaired.out()).path("repaired").asInt()).isEqualTo(1);
    assertThat(only(repaired).path("repair").asText()).startsWith("REGRANT: APPLIED");
    await().atMost(WAIT).until(() -> granted(id) == 2);
    OperatorActionRecord audit = audit("CHECK_REPAIR_REGRANT", id);
    assertThat(audit.getOperatorName()).isEqualTo("alice");
    assertThat(audit.getTargetType()).isEqualTo("payment");
    assertThat(audit.getResult()).isEqualTo("APPLIED");
    assertThat(audit.getEventId()).isEqualTo(confirmed);
    assertThat(audit.getDetails()).contains("no run was running");
    await().atMost(WAIT).until(() -> cli("check", "--json").exit() == CheckCommand.CLEAN);
    assertThat(dsl.fetchCount(OUTBOX_EVENT, OUTBOX_EVENT.AGGREGATE_ID.eq(id)))
        .as("the repair reuses the events; it never writes one")
        .isEqualTo(2);
  }

  @Test
  @Order(2)
  void stuckDispatchedEvent_isRepublishedByCheckRepair_withItsOwnEventId() throws Exception {
    String id = fulfilled("course-z");
    String confirmed = confirmedEventId(id);
    // Handed over an hour ago and never confirmed; not due again for an hour, so only the check
    // can move it.
    dsl.update(OUTBOX_EVENT)
        .set(OUTBOX_EVENT.STATUS, "DISPATCHED")
        .setNull(OUTBOX_EVENT.SENT_AT)
        .set(OUTBOX_EVENT.CREATED_AT, SqlTime.nowPlus(Duration.ofHours(-1)))
        .set(OUTBOX_EVENT.NEXT_ATTEMPT_AT, SqlTime.nowPlus(Duration.ofHours(1)))
        .where(OUTBOX_EVENT.EVENT_ID.eq(confirmed))
        .execute();

    assertFoundOnly("EVENT_NOT_SENT", confirmed, "REPUBLISH");

    repairAll("carol");
    await().atMost(WAIT).until(() -> "SENT".equals(status(confirmed)));
    OperatorActionRecord audit = audit("CHECK_REPAIR_REPUBLISH", confirmed);
    assertThat(audit.getTargetType()).isEqualTo("outbox_event");
    assertThat(audit.getResult()).isEqualTo("APPLIED");
    assertThat(audit.getDetails()).contains("onOutboxEvent PaymentConfirmed " + confirmed);
    await().atMost(WAIT).until(() -> cli("check", "--json").exit() == CheckCommand.CLEAN);
  }

  @Test
  @Order(3)
  void runningWorkflowThatHasGranted_getsALostGrantBackDirectly_forItIgnoresASeenEvent()
      throws Exception {
    String id = payrelay.createPayment(1500, "USD", "course-r");
    await().atMost(WAIT).until(() -> "SENT".equals(status(createdEventId(id))));
    payrelay.routeEvents(false);
    try {
      assertThat(payrelay.payAtSandbox(id, "{}").statusCode()).isEqualTo(200);
      // The grant does not wait for the publish; the publish goes DEAD: the run stays running.
      await()
          .atMost(WAIT)
          .until(() -> granted(id) == 1 && "DEAD".equals(status(confirmedEventId(id))));
    } finally {
      payrelay.routeEvents(true);
    }
    dsl.deleteFrom(ENTITLEMENT).where(ENTITLEMENT.PURCHASE_ID.eq(id)).execute();
    paidAgo(id, Duration.ofHours(1));

    JsonNode regrant = only(repairAll("bob"));
    assertThat(regrant.path("kind").asText()).isEqualTo("PAID_WITHOUT_ENTITLEMENT");
    assertThat(regrant.path("repair").asText()).startsWith("REGRANT: APPLIED");
    assertThat(granted(id)).as("granted by the check itself, not later by the run").isEqualTo(1);
    assertThat(audit("CHECK_REPAIR_REGRANT", id).getDetails())
        .contains("(to its running run)")
        .contains("granted directly: new [course-r]");
  }

  private static CliRun cli(String... args) {
    return CliRun.of(payrelay.env, args);
  }

  /** Runs the check; asserts that it found exactly one thing: this kind, event and repair. */
  private static void assertFoundOnly(String kind, String eventId, String repair) throws Exception {
    CliRun found = cli("check", "--json");
    assertThat(found.exit()).isEqualTo(CheckCommand.FOUND);
    JsonNode finding = only(found);
    assertThat(finding.path("kind").asText()).isEqualTo(kind);
    assertThat(finding.path("eventId").asText()).isEqualTo(eventId);
    assertThat(finding.path("repair").asText()).isEqualTo(repair);
  }

  /** Runs {@code check --repair} as {@code operator}; asserts that it repaired everything. */
  private static CliRun repairAll(String operator) {
    CliRun repaired = cli("check", "--json", "--repair", "--operator", operator);
    assertThat(repaired.exit()).as(repaired.out() + repaired.err()).isEqualTo(CheckCommand.CLEAN);
    return repaired;
  }

  /** A paid, granted, published payment whose only run completed FULFILLED, paid an hour ago. */
  private static String fulfilled(String... courses) throws Exception {
    String id = payrelay.createPayment(1200, "USD", courses);
    assertThat(payrelay.payAtSandbox(id, "{}").statusCode()).isEqualTo(200);
    await()
        .atMost(WAIT)
        .until(
            () ->
                granted(id) == courses.length
                    && dsl.fetchCount(
                            OUTBOX_EVENT,
                            OUTBOX_EVENT.AGGREGATE_ID.eq(id).and(OUTBOX_EVENT.STATUS.ne("SENT")))
                        == 0);
    await()
        .atMost(WAIT)
        .until(
            () -> {
              List<PaymentListingRow> runs = listing.runsOf(List.of(id), null).payments();
              return runs.size() == 1
                  && "COMPLETED".equals(runs.get(0).executionStatus())
                  && "FULFILLED".equals(runs.get(0).paymentState());
            });
    paidAgo(id, Duration.ofHours(1));
    return id;
  }

  private static void paidAgo(String id, Duration ago) {
    BrokenStates.paidAgo(dsl, id, ago);
  }

  private static JsonNode only(CliRun run) throws Exception {
    JsonNode findings = JSON.readTree(run.out()).path("findings");
    assertThat(findings).as(run.out() + run.err()).hasSize(1);
    return findings.get(0);
  }

  private static int granted(String paymentId) {
    return dsl.fetchCount(ENTITLEMENT, ENTITLEMENT.PURCHASE_ID.eq(paymentId));
  }

  private static String confirmedEventId(String paymentId) {
    return BrokenStates.eventId(dsl, paymentId, "PaymentConfirmed");
  }

  private static String createdEventId(String paymentId) {
    return BrokenStates.eventId(dsl, paymentId, "PaymentCreated");
  }

  private static String status(String eventId) {
    return dsl.select(OUTBOX_EVENT.STATUS)
        .from(OUTBOX_EVENT)
        .where(OUTBOX_EVENT.EVENT_ID.eq(eventId))
        .fetchSingle()
        .value1();
  }

  private static OperatorActionRecord audit(String action, String targetId) {
    return dsl.fetchSingle(
        OPERATOR_ACTION,
        OPERATOR_ACTION.ACTION.eq(action).and(OPERATOR_ACTION.TARGET_ID.eq(targetId)));
  }
}
