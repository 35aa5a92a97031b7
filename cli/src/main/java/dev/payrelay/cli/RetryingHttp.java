package dev.payrelay.cli;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/**
 * An HTTP client that keeps asking, as a client of a service that may be restarting does:
 * connection errors and 5xx answers are retried with backoff (200 ms doubling to 2 s) for up to a
 * time budget; a 4xx is final (asking again cannot help).
 */
public final class RetryingHttp {

  private final Duration budget;
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(2))
          .build();
  private volatile String lastFailure = "";

  /** A client that retries each request for up to {@code budget}. */
  public RetryingHttp(Duration budget) {
    this.budget = budget;
  }

  /** A JSON POST of {@code body} whose every attempt times out after {@code timeout}. */
  public static HttpRequest.Builder post(URI uri, String body, Duration timeout) {
    return HttpRequest.newBuilder(uri)
        .timeout(timeout)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body));
  }

  /**
   * Sends until a 2xx answer.
   *
   * @return the 2xx answer; empty after a 4xx, when the budget ran out, or when interrupted
   */
  public Optional<HttpResponse<String>> send(HttpRequest request) {
    return answer(request).filter(r -> r.statusCode() / 100 == 2);
  }

  /**
   * Sends until a 2xx or 4xx answer, for a caller that must tell a refusal (e.g. 409) from no
   * answer.
   *
   * @return the 2xx or 4xx answer; empty when the budget ran out, or when interrupted
   */
  public Optional<HttpResponse<String>> answer(HttpRequest request) {
    long deadline = System.nanoTime() + budget.toNanos();
    long backoffMillis = 200;
    while (true) {
      try {
        HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() / 100 == 2) {
          return Optional.of(r);
        }
        lastFailure = request.uri().getPath() + " answered " + r.statusCode() + ": " + r.body();
        if (r.statusCode() / 100 == 4) {
          return Optional.of(r);
        }
      } catch (IOException e) {
        lastFailure = request.uri().getPath() + ": " + e;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Optional.empty();
      }
      if (System.nanoTime() > deadline || !sleep(backoffMillis)) {
        return Optional.empty();
      }
      backoffMillis = Math.min(backoffMillis * 2, 2_000);
    }
  }

  /** The last failed attempt's answer or error, "" if none failed. */
  public String lastFailure() {
    return lastFailure;
  }

  private static boolean sleep(long millis) {
    try {
      Thread.sleep(millis);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
