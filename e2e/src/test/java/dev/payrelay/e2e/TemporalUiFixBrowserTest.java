package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.payrelay.workflows.WorkflowIds;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 27's proof in a real browser, for the stuck kinds fixed by a signal: an amount mismatch and
 * a DEAD event. Each is made on the real stack, then walked through docs/temporal-ui.md in headless
 * Chromium on the real Temporal dev server's Web UI: found by the visibility query {@code
 * PaymentState="NEEDS_ATTENTION"}, its reason read from the workflow page (User Metadata: the run's
 * current details), the fix signed with {@code payrelay admin sign-signal} and sent from the UI's
 * Send a Signal dialog with one Submit, and the payment seen leaving the list. Every screenshot (in
 * {@code target/temporal-ui-fixes/}) is checked for the words the test read. Prints one line per
 * kind: the seconds from opening the list to the payment leaving it.
 */
class TemporalUiFixBrowserTest {

  private static final String NEEDS_ATTENTION = "PaymentState=\"NEEDS_ATTENTION\"";

  private static final Path SHOTS = Path.of("target", "temporal-ui-fixes");

  /** Four publish attempts about a second apart, so an unroutable event is DEAD in seconds. */
  private static final Map<String, String> ENV =
      Map.of(
          "PAYRELAY_PUBLISH_RETRY", "*=1s/2s/4",
          "PAYRELAY_RECONCILIATION_DAILY", "false");

  private static PayrelayHarness payrelay;
  private static TemporalWebUi ui;
  private static TemporalSignalDialog dialog;

  @BeforeAll
  static void start() throws Exception {
    HeadlessChromium.requireInstalled();
    payrelay = new PayrelayHarness(TemporalUiFixBrowserTest.class, ENV);
    ui = UiFixWalk.openUi(payrelay, SHOTS);
    dialog = new TemporalSignalDialog(ui.browser());
  }

  @AfterAll
  static void stop() throws Exception {
    UiFixWalk.close(ui, payrelay);
  }

  @Test
  void amountMismatch_showsKindAndAmountsOnItsPage_andLeavesAttentionWhenAcceptedFromTheUi()
      throws Exception {
    String paymentId = payrelay.createPayment(1050, "USD", "c1");
    assertThat(payrelay.payAtSandbox(paymentId, "{\"amount\":\"10.00\"}").statusCode())
        .isEqualTo(200);
    // The clock of the walk starts once the payment is stuck, as an on-call engineer meets it.
    await()
        .atMost(Duration.ofSeconds(60))
        .ignoreExceptions()
        .until(() -> "NEEDS_ATTENTION".equals(payrelay.paymentState(paymentId)));
    UiFixWalk walk = new UiFixWalk(ui, "amount-mismatch", WorkflowIds.payment(paymentId));

    walk.find(NEEDS_ATTENTION);
    walk.readReason(List.of("AMOUNT_MISMATCH", "10.50 USD", "10.00 USD", "ACCEPT_AS_PAID"));
    String input =
        UiFixWalk.signedInput(
            payrelay,
            "--payment",
            paymentId,
            "--action",
            "ACCEPT_AS_PAID",
            "--reason",
            "channel confirmed 10.00 by phone");
    walk.signal(dialog, "resolve", input);
    walk.awaitLeft(NEEDS_ATTENTION);
    walk.showsOutcome(List.of("FULFILLED", "ACCEPT_AS_PAID by alice: APPLIED"));

    assertThat(payrelay.trail(paymentId).path("payment").path("status").asText()).isEqualTo("PAID");
    assertThat(payrelay.trail(paymentId).toString())
        .contains("ACCEPT_AS_PAID")
        .contains("\"alice\"")
        .doesNotContain("unverified");
  }

  @Test
  void deadEvent_showsTheEventAndItsLastErrorOnItsPage_andLeavesAttentionWhenReplayedFromTheUi()
      throws Exception {
    HistoryRecorder outbox = new HistoryRecorder(payrelay);
    String paymentId = payrelay.createPayment(700, "USD", "c1");
    outbox.awaitOutboxStatus(paymentId, "PaymentCreated", "SENT");
    String eventId;
    payrelay.routeEvents(false);
    try {
      assertThat(payrelay.payAtSandbox(paymentId, "{}").statusCode()).isEqualTo(200);
      eventId = outbox.awaitOutboxStatus(paymentId, "PaymentConfirmed", "DEAD");
    } finally {
      payrelay.routeEvents(true);
    }
    UiFixWalk walk = new UiFixWalk(ui, "dead-event", WorkflowIds.payment(paymentId));

    walk.find(NEEDS_ATTENTION);
    walk.readReason(List.of(eventId, "failed after 4 attempt(s)", "NO_ROUTE", "replayEvent"));
    String input =
        UiFixWalk.signedInput(
            payrelay,
            "--payment",
            paymentId,
            "--action",
            "REPLAY_EVENT",
            "--event",
            eventId,
            "--reason",
            "queue bound again");
    walk.signal(dialog, "replayEvent", input);
    walk.awaitLeft(NEEDS_ATTENTION);
    walk.showsOutcome(List.of("FULFILLED", "by alice: APPLIED"));

    assertThat(outbox.awaitOutboxStatus(paymentId, "PaymentConfirmed", "SENT")).isEqualTo(eventId);
  }
}
