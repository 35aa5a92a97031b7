package dev.payrelay.tools.soak;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.cli.RetryingHttp;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The soak's refunds (issue 28 item 7), asked for while the faults run: a share of the payments the
 * buyers paid is refunded through the public API ({@code POST /v1/payments/{id}/refunds}) once its
 * workflow has fulfilled it ({@link Fulfilment}, looked at for every waiting payment at once), each
 * in one {@link SoakRefundPlan.Shape} (full, partial, two parts, the same request sent twice, two
 * full refunds at once) against the sandbox behaving as its {@link SoakRefundPlan.Behaviour} says
 * (late answer, lost callback, reported twice, failed, …). Every request is recorded before it is
 * sent ({@link Ask}) and every answer as it came ({@link Answer}), so {@link SoakRefundAudit} can
 * hold the ledger and the channel to them.
 */
final class SoakRefunds {

  /** How long a paid payment may take to be fulfilled before its refund is given up. */
  static final Duration FULFILMENT_WAIT = Duration.ofSeconds(120);

  // One look at every waiting payment at once (a ledger read and a visibility List Filter per 100).
  private static final Duration WATCH_EVERY = Duration.ofSeconds(3);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Tells which payments are fulfilled. */
  @FunctionalInterface
  interface Fulfilment {

    /**
     * The ids among {@code paymentIds} whose payment is PAID and whose workflow's latest run
     * completed FULFILLED.
     *
     * @throws RuntimeException when it cannot tell now (the soak asks again later)
     */
    Set<String> fulfilled(List<String> paymentIds);
  }

  /**
   * A chosen payment waiting for its fulfilment, since {@code sinceNanos} ({@link
   * System#nanoTime}).
   */
  private record Waiting(long amountMinor, SoakRefundPlan plan, long sinceNanos) {}

  /**
   * A refund request the soak sent (or was about to send when stopped).
   *
   * @param key its {@code Idempotency-Key}, unique per refund the soak means
   * @param amountMinor the amount asked, minor units
   */
  record Ask(String paymentId, String key, long amountMinor, SoakRefundPlan plan) {}

  /**
   * One answer to a request with {@code key}.
   *
   * @param status the HTTP status (2xx or 4xx), 0 when none came within the retry budget
   * @param refundId the refund a 2xx named, else null
   */
  record Answer(String key, int status, String refundId) {}

  private final URI api;
  private final String apiKey;
  private final SoakSandbox sandbox;
  private final Fulfilment fulfilment;
  private final double share;
  private final Random random;
  private final RetryingHttp http = new RetryingHttp(Duration.ofSeconds(90));
  private final ScheduledExecutorService watcher =
      Executors.newSingleThreadScheduledExecutor(
          Thread.ofPlatform().daemon().name("soak-refund-watch").factory());
  private final Map<String, Waiting> waiting = new ConcurrentHashMap<>();
  private final ExecutorService refunders = Executors.newVirtualThreadPerTaskExecutor();
  private final List<Ask> asks = Collections.synchronizedList(new ArrayList<>());
  private final List<Answer> answers = Collections.synchronizedList(new ArrayList<>());
  private final AtomicInteger chosen = new AtomicInteger();
  private final AtomicInteger notFulfilled = new AtomicInteger();
  private final AtomicInteger modeGaveUp = new AtomicInteger();

  /**
   * Refunds {@code share} (0..1) of the paid payments through the API at {@code api} with {@code
   * apiKey} once {@code fulfilment} says they are fulfilled, the sandbox told each payment's
   * behaviour through {@code sandbox}.
   */
  SoakRefunds(
      URI api,
      String apiKey,
      SoakSandbox sandbox,
      Fulfilment fulfilment,
      double share,
      Random random) {
    this.api = api;
    this.apiKey = apiKey;
    this.sandbox = sandbox;
    this.fulfilment = fulfilment;
    this.share = share;
    this.random = random;
    watcher.scheduleWithFixedDelay(
        this::watch, WATCH_EVERY.toMillis(), WATCH_EVERY.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** A buyer paid {@code paymentId} ({@code amountMinor}): refund it, if it is chosen. */
  void paid(String paymentId, long amountMinor) {
    SoakRefundPlan plan;
    synchronized (random) {
      if (!(random.nextDouble() < share)) {
        return;
      }
      plan = SoakRefundPlan.choose(random, amountMinor);
    }
    chosen.incrementAndGet();
    waiting.put(paymentId, new Waiting(amountMinor, plan, System.nanoTime()));
  }

  /**
   * Waits up to {@code wait} for the waiting payments' fulfilment and the refunds under way; what
   * is still waiting then counts as not fulfilled.
   */
  void stop(Duration wait) throws InterruptedException {
    long deadline = System.nanoTime() + wait.toNanos();
    while (!waiting.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(WATCH_EVERY.toMillis());
    }
    watcher.shutdownNow();
    notFulfilled.addAndGet(waiting.size());
    waiting.clear();
    refunders.shutdown();
    long left = Math.max(0, deadline - System.nanoTime());
    if (!refunders.awaitTermination(left, TimeUnit.NANOSECONDS)) {
      refunders.shutdownNow();
    }
  }

  /**
   * Starts the refund of each waiting payment now fulfilled; gives up on those waiting longer than
   * {@link #FULFILMENT_WAIT}. A failed look is tried again at the next tick.
   */
  private void watch() {
    List<String> ids = List.copyOf(waiting.keySet());
    if (ids.isEmpty()) {
      return;
    }
    Set<String> fulfilled;
    try {
      fulfilled = fulfilment.fulfilled(ids);
    } catch (RuntimeException e) {
      return;
    }
    long now = System.nanoTime();
    for (String id : ids) {
      Waiting w = waiting.get(id);
      if (fulfilled.contains(id)) {
        waiting.remove(id);
        refunders.execute(() -> refund(id, w.amountMinor(), w.plan()));
      } else if (now - w.sinceNanos() > FULFILMENT_WAIT.toNanos()) {
        waiting.remove(id);
        notFulfilled.incrementAndGet();
      }
    }
  }

  /** The sandbox the refunds' behaviours are set at. */
  SoakSandbox sandbox() {
    return sandbox;
  }

  /** Every request recorded so far. */
  List<Ask> asks() {
    synchronized (asks) {
      return List.copyOf(asks);
    }
  }

  /** Every answer so far. */
  List<Answer> answers() {
    synchronized (answers) {
      return List.copyOf(answers);
    }
  }

  /**
   * The counts so far.
   *
   * @param chosen payments chosen for a refund
   * @param notFulfilled chosen payments not fulfilled within {@link #FULFILMENT_WAIT}: not refunded
   * @param modeGaveUp chosen payments whose refund mode the sandbox did not take: not refunded
   */
  record Tally(int chosen, int notFulfilled, int modeGaveUp) {}

  /** The counts so far. */
  Tally tally() {
    return new Tally(chosen.get(), notFulfilled.get(), modeGaveUp.get());
  }

  private void refund(String paymentId, long amountMinor, SoakRefundPlan plan) {
    if (!sandbox.setMode(paymentId, plan.behaviour().mode())) {
      modeGaveUp.incrementAndGet();
      return;
    }
    String key = "soak-refund-" + paymentId;
    switch (plan.shape()) {
      case FULL -> ask(new Ask(paymentId, key, amountMinor, plan));
      case PARTIAL -> ask(new Ask(paymentId, key, plan.partMinor(), plan));
      case TWO_PARTS -> {
        ask(new Ask(paymentId, key + "-1", plan.partMinor(), plan));
        ask(new Ask(paymentId, key + "-2", amountMinor - plan.partMinor(), plan));
      }
      case RETRIED -> {
        Ask once = new Ask(paymentId, key, plan.partMinor(), plan);
        together(() -> ask(once), () -> send(once));
      }
      case RACE ->
          together(
              () -> ask(new Ask(paymentId, key + "-a", amountMinor, plan)),
              () -> ask(new Ask(paymentId, key + "-b", amountMinor, plan)));
    }
  }

  /** Records {@code ask}, then sends it once. */
  private void ask(Ask ask) {
    asks.add(ask);
    send(ask);
  }

  /** Sends {@code ask}'s request (retried on 5xx and connection errors) and records the answer. */
  private void send(Ask ask) {
    String body =
        "{\"amountMinor\":%d,\"reason\":\"soak %s\"}"
            .formatted(ask.amountMinor(), ask.plan().shape().label());
    HttpRequest post =
        RetryingHttp.post(
                api.resolve("/v1/payments/" + ask.paymentId() + "/refunds"),
                body,
                Duration.ofSeconds(15))
            .header("Idempotency-Key", ask.key())
            .header("Authorization", "Bearer " + apiKey)
            .build();
    Optional<HttpResponse<String>> answer = http.answer(post);
    int status = answer.map(HttpResponse::statusCode).orElse(0);
    String refundId = null;
    if (status / 100 == 2) {
      refundId = field(answer.get().body(), "refundId");
    }
    answers.add(new Answer(ask.key(), status, refundId));
  }

  /** Runs both at once and waits for both. */
  private static void together(Runnable a, Runnable b) {
    Thread first = Thread.ofVirtual().start(a);
    b.run();
    try {
      first.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static String field(String json, String name) {
    try {
      return JSON.readTree(json).path(name).asText(null);
    } catch (JsonProcessingException e) {
      return null;
    }
  }
}
