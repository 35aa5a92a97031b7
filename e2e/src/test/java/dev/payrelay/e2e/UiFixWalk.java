package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One stuck payment walked through docs/temporal-ui.md in the Temporal Web UI, as an on-call
 * engineer does it: the list for a visibility query, the workflow page's current details, a signal
 * from the Send a Signal dialog, the list again. Screenshots are named {@code {kind}-{n}-{step}}
 * and each is checked for the words the step read; {@link #awaitLeft} prints the seconds from
 * opening the list to the payment leaving it.
 */
final class UiFixWalk {

  /**
   * {@code payrelay dev}'s UI port, for a server this JVM did not start ({@code
   * PAYRELAY_TEST_TEMPORAL_ADDRESS} set).
   */
  private static final int DEV_UI_PORT = 8233;

  private final TemporalWebUi ui;
  private final String kind;
  private final String workflowId;
  private int shots;
  private long openedAt;
  private List<String> reason = List.of();
  private String runPage;

  UiFixWalk(TemporalWebUi ui, String kind, String workflowId) {
    this.ui = ui;
    this.kind = kind;
    this.workflowId = workflowId;
  }

  /** The Web UI of the dev server the harness's namespace is on, in a new headless browser. */
  static TemporalWebUi openUi(PayrelayHarness payrelay, Path shots) throws Exception {
    int port = RealTemporal.uiPort() > 0 ? RealTemporal.uiPort() : DEV_UI_PORT;
    return new TemporalWebUi(
        "http://127.0.0.1:" + port, payrelay.config.temporal().namespace(), shots);
  }

  /** Closes the browser, then the harness; either may be null (a failed start). */
  static void close(TemporalWebUi ui, PayrelayHarness payrelay) throws Exception {
    try {
      if (ui != null) {
        ui.close();
      }
    } finally {
      if (payrelay != null) {
        payrelay.close();
      }
    }
  }

  /**
   * Runs {@code payrelay admin sign-signal} with {@code args} as the runbook's step 1 does and
   * returns the JSON it prints for the UI's Data box (the block after its first line).
   */
  static String signedInput(PayrelayHarness payrelay, String... args) {
    List<String> command = new ArrayList<>(List.of("admin", "sign-signal"));
    command.addAll(Arrays.asList(args));
    CliRun signed = CliRun.of(payrelay.env, command.toArray(String[]::new));
    assertThat(signed.exit()).as(signed.err()).isZero();
    String[] blocks = signed.out().split("\\R\\R");
    assertThat(blocks).as(signed.out()).hasSizeGreaterThan(2);
    return blocks[1].strip();
  }

  /** Opens the list for {@code query} (the clock starts) and waits for the payment's row. */
  void find(String query) throws Exception {
    openedAt = System.nanoTime();
    ui.awaitRow(query, workflowId, true);
    ui.screenshotShowing(next("list"), List.of(workflowId));
  }

  /**
   * Opens the payment's page from its row, then its User Metadata tab, and waits until the current
   * details show every one of {@code words}.
   */
  void readReason(List<String> words) throws Exception {
    reason = words;
    ui.openWorkflow(workflowId);
    runPage = ui.browser().driver().getCurrentUrl();
    ui.openUserMetadata();
    ui.awaitText("the current details of " + workflowId, words);
    ui.screenshotShowing(next("current-details"), words);
  }

  /** Sends signal {@code name} with {@code json} from the dialog, with one Submit. */
  void signal(TemporalSignalDialog dialog, String name, String json) throws Exception {
    dialog.fill(name, json);
    ui.screenshotShowing(next("signal-" + name), reason);
    dialog.submitOnce();
  }

  /**
   * Waits until the list for {@code query} no longer shows the payment; prints the seconds since
   * {@link #find}.
   */
  void awaitLeft(String query) throws Exception {
    ui.awaitRow(query, workflowId, false);
    double seconds = (System.nanoTime() - openedAt) / 1e9;
    System.out.printf(
        "ui-proof %s: %.1f s from opening the list %s to %s leaving it%n",
        kind, seconds, query, workflowId);
    ui.screenshotShowing(next("list-after-fix"), List.of());
  }

  /**
   * Opens the page of the run that was signalled again (a finished run's Result is its last {@code
   * state}) and waits until it shows each of {@code words}.
   */
  void showsOutcome(List<String> words) throws Exception {
    ui.browser().driver().get(runPage);
    ui.awaitText("the page of " + workflowId + " after the fix", words);
    ui.screenshotShowing(next("after-fix"), words);
  }

  /**
   * Opens the page of the run that was signalled again, runs its {@code state} query from the
   * Queries tab and waits until the answer shows each of {@code words}.
   */
  void showsState(List<String> words) throws Exception {
    ui.browser().driver().get(runPage);
    ui.runQuery("state");
    ui.awaitText("the state query of " + workflowId, words);
    ui.screenshotShowing(next("state-after-fix"), words);
  }

  private String next(String step) {
    return kind + "-" + ++shots + "-" + step;
  }
}
