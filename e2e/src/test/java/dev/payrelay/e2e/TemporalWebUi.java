package dev.payrelay.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;

/**
 * The Temporal Web UI (2.54, as {@code temporal server start-dev} serves it) in a {@link
 * HeadlessChromium}, used as an on-call engineer uses it: the workflow list with a visibility
 * query, a workflow's Search Attributes and Queries tabs. Selectors are the UI's own {@code
 * data-testid}s and visible labels.
 */
final class TemporalWebUi implements AutoCloseable {

  /** Visibility is eventually consistent: a list is reloaded until it shows what is expected. */
  private static final Duration LIST = Duration.ofSeconds(120);

  /** How long a list that answered without the expected row is kept before reloading it. */
  private static final Duration RELOAD = Duration.ofSeconds(3);

  /** How long a workflow page is kept before it is loaded again while waiting for its text. */
  private static final Duration PAGE_RELOAD = Duration.ofSeconds(10);

  /** How long a list may take to render (seconds on a busy machine) before it is loaded again. */
  private static final Duration RENDER = Duration.ofSeconds(45);

  /**
   * Reads JSON as the UI shows it: a string's line breaks (the state query's {@code details}) are
   * shown as line breaks, not as {@code \n}, so raw control characters in strings are allowed.
   */
  private static final ObjectMapper JSON =
      com.fasterxml.jackson.databind.json.JsonMapper.builder()
          .enable(com.fasterxml.jackson.core.json.JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS)
          .build();

  private final String base;
  private final String namespace;
  private final HeadlessChromium browser;

  /**
   * Opens a browser on the UI at {@code base} (e.g. {@code http://127.0.0.1:8233}) for {@code
   * namespace} once the UI answers HTTP; screenshots go to {@code shots}.
   *
   * @throws IllegalStateException if chromium or chromedriver is missing, or the UI does not answer
   *     within a minute
   */
  TemporalWebUi(String base, String namespace, Path shots)
      throws IOException, InterruptedException {
    HeadlessChromium.requireInstalled();
    awaitAnswers(URI.create(base + "/"));
    this.base = base;
    this.namespace = namespace;
    this.browser = new HeadlessChromium(shots);
  }

  /**
   * Types {@code query} into the raw query box of the workflow list on screen (opening the box with
   * its {@code </>} button when closed) and runs it with Enter.
   */
  void search(String query) {
    By toggle = By.cssSelector("[data-testid=toggle-manual-query]");
    By box = By.cssSelector("[data-testid=workflow-manual-search-input]");
    browser.await("the list's raw query button", d -> browser.visible(toggle).orElse(null));
    if (browser.visible(box).isEmpty()) {
      browser.clickVisible(toggle);
    }
    WebElement input = browser.await("the raw query box", d -> browser.visible(box).orElse(null));
    input.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.BACK_SPACE);
    input.sendKeys(query, Keys.ENTER);
    browser.await("the list for " + query, d -> d.getCurrentUrl().equals(listUrl(query)));
  }

  /**
   * Waits until the list for {@code query} shows (or, with {@code present} false, no longer shows)
   * a row for {@code workflowId}. Opens that list unless it is on screen, and reloads it while it
   * answers otherwise, giving the app time to render after each load.
   */
  void awaitRow(String query, String workflowId, boolean present) {
    String url = listUrl(query);
    if (!browser.driver().getCurrentUrl().equals(url)) {
      browser.driver().get(url);
    }
    long[] loadedAt = {System.nanoTime()};
    browser.await(
        (present ? "a row " : "no row ") + workflowId + " for " + query,
        LIST,
        Duration.ofMillis(500),
        d -> {
          Optional<Boolean> shown = listShows(workflowId);
          if (shown.equals(Optional.of(present))) {
            return true;
          }
          Duration since = Duration.ofNanos(System.nanoTime() - loadedAt[0]);
          if (since.compareTo(shown.isPresent() ? RELOAD : RENDER) > 0) {
            d.get(url);
            loadedAt[0] = System.nanoTime();
          }
          return false;
        });
  }

  /** Opens the workflow from its row in the list on screen. */
  void openWorkflow(String workflowId) {
    browser.clickVisible(By.linkText(workflowId));
    browser.await(
        "the page of " + workflowId, d -> d.getCurrentUrl().contains("/" + workflowId + "/"));
  }

  /** Opens the workflow's Search Attributes tab; returns the JSON object it shows. */
  JsonNode searchAttributes() {
    clickTab("Search Attributes");
    return browser.await(
        "the search attributes",
        d ->
            d.findElements(By.cssSelector("main .cm-content")).stream()
                .filter(WebElement::isDisplayed)
                .map(e -> json(e.getText()))
                .filter(j -> j != null && j.has("PaymentState"))
                .findFirst()
                .orElse(null));
  }

  /** Opens the Queries tab, picks {@code queryType}, clicks Run Query; returns its JSON result. */
  JsonNode runQuery(String queryType) {
    clickTab("Queries");
    browser.clickVisible(By.cssSelector("[data-testid=query-select-button]"));
    browser.clickVisible(
        By.xpath(
            "//ul[@id='query-select-select']/li[.//span[normalize-space()='" + queryType + "']]"));
    browser.clickVisible(By.xpath("//button[normalize-space()='Run Query']"));
    return browser.await(
        "the result of query " + queryType,
        d ->
            d.findElements(By.cssSelector("[data-testid=query-result] .cm-content")).stream()
                .map(e -> json(e.getText()))
                .filter(j -> j != null && j.isObject())
                .findFirst()
                .orElse(null));
  }

  /** Saves what the browser shows as {@code {name}.png} in the shots directory; returns it. */
  Path screenshot(String name) throws IOException {
    return browser.screenshot(name);
  }

  /**
   * Opens the workflow page's User Metadata tab, where UI 2.54 shows the workflow's summary, its
   * static details and the run's current details ({@code Workflow.setCurrentDetails}).
   */
  void openUserMetadata() {
    clickTab("User Metadata");
    browser.await("the User Metadata tab", d -> d.getCurrentUrl().contains("/user-metadata"));
  }

  /**
   * Waits until the page on screen shows every one of {@code words} in its visible text, loading it
   * again every {@link #PAGE_RELOAD} (the current details change with the run's workflow tasks);
   * returns that text.
   */
  String awaitText(String what, List<String> words) {
    long[] loadedAt = {System.nanoTime()};
    return browser.await(
        what + " showing " + words,
        LIST,
        Duration.ofMillis(500),
        d -> {
          String text = browser.visibleText();
          if (words.stream().allMatch(text::contains)) {
            return text;
          }
          if (Duration.ofNanos(System.nanoTime() - loadedAt[0]).compareTo(PAGE_RELOAD) > 0) {
            d.navigate().refresh();
            loadedAt[0] = System.nanoTime();
          }
          return null;
        });
  }

  /**
   * Saves a screenshot as {@code name} after checking that the page on screen shows each of {@code
   * words}, so a screenshot is evidence of what the test read.
   *
   * @throws AssertionError naming the words missing from the page's visible text
   */
  Path screenshotShowing(String name, List<String> words) throws IOException {
    Path shot = browser.screenshot(name);
    String text = browser.visibleText();
    List<String> missing = words.stream().filter(w -> !text.contains(w)).toList();
    if (!missing.isEmpty()) {
      throw new AssertionError(
          "screenshot " + shot + " does not show " + missing + "; the page shows:\n" + text);
    }
    return shot;
  }

  /** The browser, for dialogs of the workflow page ({@link TemporalSignalDialog}). */
  HeadlessChromium browser() {
    return browser;
  }

  @Override
  public void close() throws IOException {
    browser.close();
  }

  /**
   * Whether the list on screen has a row for {@code workflowId}; empty while it is still loading
   * (it has answered once it shows rows or its empty state, "No Workflows Found").
   */
  private Optional<Boolean> listShows(String workflowId) {
    if (browser.visible(By.linkText(workflowId)).isPresent()) {
      return Optional.of(true);
    }
    boolean answered =
        browser
                .visible(By.cssSelector("tr[data-testid=workflows-summary-configurable-table-row]"))
                .isPresent()
            || browser
                .visible(By.xpath("//h2[normalize-space()='No Workflows Found']"))
                .isPresent();
    return answered ? Optional.of(false) : Optional.empty();
  }

  /** A tab of the workflow page; its label may carry a count ("Event History 25"). */
  private void clickTab(String label) {
    browser.clickVisible(
        By.xpath(
            String.format(
                "//a[@role='tab'][normalize-space()='%s' or starts-with(normalize-space(), '%s ')]",
                label, label)));
  }

  private String listUrl(String query) {
    return base
        + "/namespaces/"
        + namespace
        + "/workflows?query="
        + URLEncoder.encode(query, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      return null;
    }
  }

  private static void awaitAnswers(URI uri) throws InterruptedException {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
    while (System.nanoTime() < deadline) {
      try {
        HttpResponse<Void> r =
            http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.discarding());
        if (r.statusCode() < 500) {
          return;
        }
      } catch (IOException notYet) {
        // The UI listens a moment after the frontend port opens.
      }
      Thread.sleep(500);
    }
    throw new IllegalStateException(
        "the Temporal UI at " + uri + " did not answer within a minute");
  }
}
