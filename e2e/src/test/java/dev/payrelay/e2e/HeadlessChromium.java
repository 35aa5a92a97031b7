package dev.payrelay.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's Chromium, headless, driven by Debian's chromedriver (the packages {@code chromium} and
 * {@code chromium-driver} that deploy/local/setup.sh installs; Selenium Manager is never asked to
 * download anything). A fresh profile per instance, a 1600x1000 window. A wait that times out saves
 * a screenshot, the URL, the visible text and the page source as {@code failed-*} in the shots
 * directory before it fails.
 */
final class HeadlessChromium implements AutoCloseable {

  static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

  /** A single-page app renders after a click or a load; seconds on a busy machine. */
  private static final Duration STEP = Duration.ofSeconds(60);

  private final Path shots;
  private final Path profile;
  private final ChromeDriver driver;

  /**
   * Fails unless both binaries are installed.
   *
   * @throws IllegalStateException naming the missing binary and deploy/local/setup.sh
   */
  static void requireInstalled() {
    for (Path binary : List.of(CHROMIUM, CHROMEDRIVER)) {
      if (!Files.isExecutable(binary)) {
        throw new IllegalStateException(
            binary
                + " is missing: run deploy/local/setup.sh (it installs the Debian packages"
                + " chromium and chromium-driver)");
      }
    }
  }

  /** Starts the browser; screenshots and chromedriver.log go to {@code shots}. */
  HeadlessChromium(Path shots) throws IOException {
    requireInstalled();
    this.shots = Files.createDirectories(shots);
    profile = Files.createTempDirectory("payrelay-chromium-");
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(CHROMEDRIVER.toFile())
            .usingAnyFreePort()
            .withLogFile(shots.resolve("chromedriver.log").toFile())
            .build();
    ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--user-data-dir=" + profile.toAbsolutePath(),
        // Tall enough that a query answer of some 60 lines is on screen whole: CodeMirror renders
        // only the lines in view, and the tests read the answer from the page.
        "--window-size=1600,4000");
    driver = new ChromeDriver(service, options);
  }

  /** The driver, for navigation and element look-ups. */
  WebDriver driver() {
    return driver;
  }

  /** Waits up to a minute for {@code condition} to answer non-null and non-false. */
  <T> T await(String what, Function<WebDriver, T> condition) {
    return await(what, STEP, Duration.ofMillis(500), condition);
  }

  /**
   * Waits up to {@code timeout}, asking {@code condition} every {@code poll}; WebDriver errors
   * (stale or intercepted elements while the app re-renders) count as "not yet".
   *
   * @throws AssertionError naming {@code what} and the saved {@code failed-*} files
   */
  <T> T await(String what, Duration timeout, Duration poll, Function<WebDriver, T> condition) {
    WebDriverWait wait = new WebDriverWait(driver, timeout, poll);
    wait.ignoring(WebDriverException.class).withMessage(() -> "waiting for " + what);
    try {
      return wait.until(condition::apply);
    } catch (TimeoutException e) {
      String name = "failed-" + System.currentTimeMillis();
      try {
        screenshot(name);
        Files.writeString(
            shots.resolve(name + ".txt"),
            driver.getCurrentUrl() + "\n\n" + visibleText() + "\n\n" + driver.getPageSource());
      } catch (IOException | WebDriverException saving) {
        e.addSuppressed(saving);
      }
      throw new AssertionError(
          "the browser did not show " + what + " (see " + shots.resolve(name) + ".png)", e);
    }
  }

  /** The first displayed element {@code by} finds, if any (the UI keeps hidden duplicates). */
  Optional<WebElement> visible(By by) {
    return driver.findElements(by).stream().filter(WebElement::isDisplayed).findFirst();
  }

  /** Waits until an element {@code by} finds is displayed, and clicks it. */
  void clickVisible(By by) {
    await(
        "a clickable " + by,
        d -> {
          Optional<WebElement> e = visible(by);
          e.ifPresent(WebElement::click);
          return e.isPresent();
        });
  }

  /** Saves what the browser shows as {@code {name}.png} in the shots directory; returns it. */
  Path screenshot(String name) throws IOException {
    return Files.write(shots.resolve(name + ".png"), driver.getScreenshotAs(OutputType.BYTES));
  }

  /**
   * The text of the page on screen and of its displayed frames, each frame's after the page's: the
   * Temporal UI renders a workflow's summary and details (Markdown) in iframes of their own.
   */
  String visibleText() {
    StringBuilder text = new StringBuilder(bodyText());
    for (WebElement frame : driver.findElements(By.tagName("iframe"))) {
      if (!frame.isDisplayed()) {
        continue;
      }
      try {
        driver.switchTo().frame(frame);
        text.append('\n').append(bodyText());
      } finally {
        driver.switchTo().defaultContent();
      }
    }
    return text.toString();
  }

  private String bodyText() {
    return driver.findElements(By.tagName("body")).stream()
        .map(WebElement::getText)
        .findFirst()
        .orElse("");
  }

  @Override
  public void close() throws IOException {
    try {
      driver.quit();
    } finally {
      try (var files = Files.walk(profile)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }
}
