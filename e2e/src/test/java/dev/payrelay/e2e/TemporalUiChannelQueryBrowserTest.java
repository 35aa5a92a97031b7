package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.payrelay.simulators.sandbox.SandboxMode;
import dev.payrelay.workflows.PaymentSearchAttributes;
import dev.payrelay.workflows.WorkflowIds;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 27's proof in a real browser for the payment that used to be invisible: its callback lost
 * and every channel query failing. Walked through docs/temporal-ui.md in headless Chromium on the
 * real Temporal dev server's Web UI: found by {@code PaymentAttention="channel-query"}, the reason
 * (queries failed in a row, attempts, the channel's last error) read from the workflow page's
 * current details, the channel brought back, {@code requery} signed with {@code payrelay admin
 * sign-signal} and sent from the Send a Signal dialog, and the payment seen leaving the list.
 * Screenshots in {@code target/temporal-ui-fixes/}, each checked for the words the test read.
 *
 * <p>Queries 1 s after the start, then 12 s and 24 s later: the reason is up some 40 s after the
 * payment is made, and the next scheduled query is 48 s after that, so the cause stays open while
 * the browser works and the {@code requery} is what asks the recovered channel.
 */
class TemporalUiChannelQueryBrowserTest {

  private static final String CHANNEL_QUERY =
      "PaymentAttention=\"channel-query\" AND ExecutionStatus=\"Running\"";

  private static final Path SHOTS = Path.of("target", "temporal-ui-fixes");

  private static final Map<String, String> ENV =
      Map.of(
          "PAYRELAY_QUERY_GRACE", "1s",
          "PAYRELAY_QUERY_INITIAL", "12s",
          "PAYRELAY_QUERY_MAX", "600s",
          "PAYRELAY_PAYMENT_TTL", "900s",
          "PAYRELAY_RECONCILIATION_DAILY", "false");

  private static PayrelayHarness payrelay;
  private static TemporalWebUi ui;
  private static TemporalSignalDialog dialog;

  @BeforeAll
  static void start() throws Exception {
    HeadlessChromium.requireInstalled();
    payrelay = new PayrelayHarness(TemporalUiChannelQueryBrowserTest.class, ENV);
    ui = UiFixWalk.openUi(payrelay, SHOTS);
    dialog = new TemporalSignalDialog(ui.browser());
  }

  @AfterAll
  static void stop() throws Exception {
    UiFixWalk.close(ui, payrelay);
  }

  @Test
  void channelQueriesFailing_showAttemptsAndLastErrorOnItsPage_andClearOnARequeryFromTheUi()
      throws Exception {
    String paymentId = payrelay.createPayment(1050, "USD", "c1");
    payrelay
        .stack
        .sandbox()
        .setMode(paymentId, SandboxMode.NORMAL.droppingCallbacks().failingQueries(1_000));
    String workflowId = WorkflowIds.payment(paymentId);
    // The clock of the walk starts once the payment is stuck, as an on-call engineer meets it.
    await()
        .atMost(Duration.ofSeconds(120))
        .ignoreExceptions()
        .until(
            () ->
                PaymentSearchAttributes.CHANNEL_QUERY_FAILING.equals(
                    payrelay
                        .stack
                        .temporal()
                        .client()
                        .newUntypedWorkflowStub(workflowId)
                        .describe()
                        .getTypedSearchAttributes()
                        .get(PaymentSearchAttributes.PAYMENT_ATTENTION)));
    UiFixWalk walk = new UiFixWalk(ui, "channel-query", workflowId);

    walk.find(CHANNEL_QUERY);
    walk.readReason(
        List.of("the channel query failed 3 times in a row", "3 attempts each", "503", "requery"));
    payrelay.stack.sandbox().setMode(paymentId, SandboxMode.NORMAL.droppingCallbacks());
    String input =
        UiFixWalk.signedInput(
            payrelay,
            "--payment",
            paymentId,
            "--action",
            "REQUERY",
            "--reason",
            "the channel answers again");
    walk.signal(dialog, "requery", input);
    walk.awaitLeft(CHANNEL_QUERY);
    walk.showsState(List.of("AWAITING_PAYMENT", "by alice: APPLIED"));

    assertThat(payrelay.paymentState(paymentId)).isEqualTo("AWAITING_PAYMENT");
    assertThat(payrelay.trail(paymentId).toString()).contains("REQUERY").contains("\"alice\"");
  }
}
