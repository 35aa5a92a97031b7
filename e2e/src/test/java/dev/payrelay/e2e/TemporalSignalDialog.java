package dev.payrelay.e2e;

import java.time.Duration;
import java.util.Optional;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;

/**
 * The Temporal Web UI's (2.54) "Send a Signal" dialog on a workflow's page, used as the runbook
 * (docs/temporal-ui.md) says: More Actions, Send a Signal, the signal name, the JSON pasted into
 * Data with Encoding json/plain, one click on Submit.
 *
 * <p>The UI lists the signal names it reads from the workflow's {@code
 * __temporal_workflow_metadata} query (the Java SDK answers it with every {@code @SignalMethod});
 * without that list it shows a free-text "Signal name" box, which this dialog fills instead. Data
 * is a CodeMirror editor: the JSON is given to it as a paste (a {@code paste} event carrying the
 * text, as a browser's Ctrl+V does), not typed key by key, because typing goes through the editor's
 * bracket-closing and auto-indent.
 */
final class TemporalSignalDialog {

  /** How long the dialog may stay open after Submit before the send counts as not done. */
  private static final Duration SUBMITTED = Duration.ofSeconds(20);

  private static final String OPEN = "//dialog[@id='signal-confirmation-modal'][@open]";

  private static final String PASTE =
      "const editor = arguments[0];"
          + " editor.focus();"
          + " const data = new DataTransfer();"
          + " data.setData('text/plain', arguments[1]);"
          + " editor.dispatchEvent(new ClipboardEvent('paste',"
          + " {clipboardData: data, bubbles: true, cancelable: true}));";

  private final HeadlessChromium browser;

  TemporalSignalDialog(HeadlessChromium browser) {
    this.browser = browser;
  }

  /**
   * Opens the dialog on the workflow page on screen, chooses signal {@code name} and pastes {@code
   * json} into Data; {@link #submitOnce} sends it.
   *
   * @throws AssertionError if the dialog, the signal name or the editor cannot be found, or the
   *     editor holds other text than {@code json} (whitespace aside) after the paste
   */
  void fill(String name, String json) {
    browser.clickVisible(By.xpath("//button[normalize-space()='More Actions']"));
    browser.clickVisible(By.xpath("//*[@role='menuitem'][normalize-space()='Send a Signal']"));
    browser.await("the Send a Signal dialog", d -> browser.visible(By.xpath(OPEN)).orElse(null));
    chooseSignal(name);
    WebElement editor =
        browser.await(
            "the dialog's Data editor",
            d ->
                browser
                    .visible(By.xpath(OPEN + "//*[@role='textbox'][@aria-label='Data']"))
                    .orElse(null));
    ((JavascriptExecutor) browser.driver()).executeScript(PASTE, editor, json);
    browser.await(
        "the pasted JSON in the Data editor",
        d -> editor.getText().replaceAll("\\s", "").equals(json.replaceAll("\\s", "")));
  }

  /**
   * Clicks Submit once and waits for the dialog to close (the UI closes it once the server accepted
   * the signal).
   *
   * @throws AssertionError if the dialog is still open {@link #SUBMITTED} after the one click
   */
  void submitOnce() {
    browser
        .visible(By.xpath(OPEN + "//button[@data-testid='confirm-modal-button']"))
        .orElseThrow(() -> new AssertionError("no Submit button in the Send a Signal dialog"))
        .click();
    browser.await(
        "the Send a Signal dialog closed after one Submit",
        SUBMITTED,
        Duration.ofMillis(250),
        d -> browser.visible(By.xpath(OPEN)).isEmpty());
  }

  private void chooseSignal(String name) {
    Optional<WebElement> select =
        browser.visible(By.xpath(OPEN + "//button[@data-testid='signal-select-button']"));
    if (select.isEmpty()) {
      browser
          .await(
              "the dialog's Signal name box",
              d -> browser.visible(By.xpath(OPEN + "//input[@id='signal-name']")).orElse(null))
          .sendKeys(name);
      return;
    }
    select.get().click();
    // The internal signal is in the list too, and says so in its description.
    WebElement internal =
        browser.await(
            "onOutboxEvent in the signal list",
            d -> browser.visible(By.xpath(option("onOutboxEvent"))).orElse(null));
    if (!internal.getText().contains("INTERNAL, sent only by payrelay's outbox dispatcher")) {
      throw new AssertionError("onOutboxEvent is not labelled internal: " + internal.getText());
    }
    browser.clickVisible(By.xpath(option(name)));
  }

  private static String option(String name) {
    return OPEN
        + "//ul[@id='signal-select-select']/li[@role='option'][.//span[normalize-space()='"
        + name
        + "']]";
  }
}
