package dev.payrelay.simulators.sandbox;

import dev.payrelay.channels.sandbox.SandboxMessage;
import dev.payrelay.channels.sandbox.SandboxSignature;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Posts signed notifications (payments' and refunds') to a merchant's notify_url the way real
 * channels do: at least once, retrying any non-2xx answer or connection error after each configured
 * delay until a 2xx or the attempts run out. Each attempt is signed afresh (new timestamp) over the
 * same body bytes, so retries carry the same notification id, with the secret of the merchant
 * account the notification names (its payment's account). Every attempt is logged, never a secret.
 */
final class CallbackDeliverer {

  private static final Logger log = LoggerFactory.getLogger(CallbackDeliverer.class);

  private final HttpClient client;
  private final Map<String, SandboxSignature> signers;
  private final ScheduledExecutorService scheduler;
  private final List<Duration> retryDelays;
  private final Duration timeout;

  CallbackDeliverer(
      HttpClient client,
      Map<String, SandboxSignature> signers,
      ScheduledExecutorService scheduler,
      List<Duration> retryDelays,
      Duration timeout) {
    this.client = client;
    this.signers = Map.copyOf(signers);
    this.scheduler = scheduler;
    this.retryDelays = List.copyOf(retryDelays);
    this.timeout = timeout;
  }

  /**
   * Makes the first attempt on the caller's thread and, unless it got a 2xx, schedules the retries
   * in the background.
   *
   * @return the first attempt's HTTP status, or null if it got no answer
   */
  Integer deliver(URI notifyUrl, SandboxMessage notification) {
    Integer status = attempt(notifyUrl, notification, 1);
    if (!isSuccess(status)) {
      scheduleAttempt(notifyUrl, notification, 2);
    }
    return status;
  }

  /**
   * Delivers, delays or drops a notification per {@code mode} (see {@link SandboxMode.Callbacks}).
   *
   * @return the first attempt's HTTP status, or null if it got no answer or was not made now
   */
  Integer deliver(URI notifyUrl, SandboxMessage notification, SandboxMode mode) {
    return switch (mode.callbacks()) {
      case DELIVER -> deliver(notifyUrl, notification);
      case DELAY -> {
        deliverAfter(notifyUrl, notification, mode.callbackDelay());
        yield null;
      }
      case DROP -> {
        log.info("callback dropped by mode payment={}", notification.paymentId());
        yield null;
      }
    };
  }

  /** Makes the first attempt {@code delay} from now in the background, then retries as usual. */
  void deliverAfter(URI notifyUrl, SandboxMessage notification, Duration delay) {
    schedule(notifyUrl, notification, 1, delay);
  }

  private void scheduleAttempt(URI notifyUrl, SandboxMessage notification, int attempt) {
    if (attempt > retryDelays.size() + 1) {
      log.warn(
          "callback gave up payment={} notification={} after {} attempts",
          notification.paymentId(),
          notification.notificationId(),
          attempt - 1);
      return;
    }
    schedule(notifyUrl, notification, attempt, retryDelays.get(attempt - 2));
  }

  private void schedule(URI notifyUrl, SandboxMessage notification, int attempt, Duration delay) {
    Runnable run =
        () -> {
          if (!isSuccess(attempt(notifyUrl, notification, attempt))) {
            scheduleAttempt(notifyUrl, notification, attempt + 1);
          }
        };
    try {
      scheduler.schedule(run, delay.toMillis(), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException closed) {
      log.info("callback retry dropped, simulator closed: {}", notification.notificationId());
    }
  }

  private Integer attempt(URI notifyUrl, SandboxMessage notification, int attempt) {
    byte[] body = notification.toJson();
    HttpRequest.Builder request =
        HttpRequest.newBuilder(notifyUrl)
            .timeout(timeout)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    // Registration admits only merchants with a signer, so every payment's notification has one.
    signers.get(notification.merchantId()).headersFor(body).forEach(request::header);
    Integer status = null;
    String failure = "";
    try {
      status = client.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException e) {
      failure = " error=" + e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      failure = " error=interrupted";
    }
    log.info(
        "callback attempt={} payment={} notification={} url={} status={}{}",
        attempt,
        notification.paymentId(),
        notification.notificationId(),
        notifyUrl,
        status == null ? "none" : status,
        failure);
    return status;
  }

  private static boolean isSuccess(Integer status) {
    return status != null && status >= 200 && status < 300;
  }
}
