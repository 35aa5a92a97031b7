package dev.payrelay.tools.soak;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.cli.RetryingHttp;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ObjLongConsumer;

/**
 * The soak's buyers: at a steady rate, each creates a payment through the API ({@code POST
 * /v1/payments} with its order id as {@code Idempotency-Key}, so a retry while the API is dead or
 * its database cut returns the same payment) and, nine times in ten, pays it at the sandbox as a
 * buyer would; the tenth stays unpaid, so "nothing granted without payment" is checked too. Every
 * call is retried on connection errors and 5xx answers for up to 90 s ({@link RetryingHttp}).
 */
final class SoakBuyers {

  /** What the soak knows of a payment it created. */
  enum Pay {
    /** The sandbox answered the pay call: the channel took the money and sends the callback. */
    PAID,
    /** Left unpaid on purpose. */
    UNPAID,
    /** The pay call never got an answer: the channel may or may not have taken the money. */
    UNKNOWN
  }

  private static final List<String> COURSES =
      List.of("course-java", "course-sql", "course-kafka", "course-k8s", "course-go");
  private static final ObjectMapper JSON = new ObjectMapper();

  private final URI api;
  private final URI sandbox;
  private final Random random;
  private final RetryingHttp http = new RetryingHttp(Duration.ofSeconds(90));
  private final String apiKey;
  private final ObjLongConsumer<String> paid;
  private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
  private final ExecutorService buyers = Executors.newVirtualThreadPerTaskExecutor();
  private final Map<String, Pay> payments = new ConcurrentHashMap<>();
  private final AtomicInteger orders = new AtomicInteger();
  private final AtomicInteger createGaveUp = new AtomicInteger();
  private final AtomicInteger payGaveUp = new AtomicInteger();

  /** The tenant of every soak payment. */
  static final String TENANT = "soak";

  /**
   * Buyers against the API at {@code api}, creating payments with {@code apiKey}, paying at the
   * sandbox; each payment the sandbox answered the pay call for is handed to {@code paid} with its
   * amount in minor units (e.g. {@link SoakRefunds#paid}).
   */
  SoakBuyers(URI api, String apiKey, URI sandbox, Random random, ObjLongConsumer<String> paid) {
    this.api = api;
    this.apiKey = apiKey;
    this.paid = paid;
    this.sandbox = sandbox;
    this.random = random;
  }

  /** Starts a buyer every {@code 1 / perSecond} seconds. */
  void start(double perSecond) {
    long periodNanos = Math.max(1, Math.round(1e9 / perSecond));
    ticker.scheduleAtFixedRate(this::next, 0, periodNanos, TimeUnit.NANOSECONDS);
  }

  /** Starts no more buyers and waits up to {@code wait} for those under way. */
  void stop(Duration wait) throws InterruptedException {
    ticker.shutdownNow();
    buyers.shutdown();
    if (!buyers.awaitTermination(wait.toMillis(), TimeUnit.MILLISECONDS)) {
      buyers.shutdownNow();
    }
  }

  /** Every payment created so far, by payment id. */
  Map<String, Pay> payments() {
    return Map.copyOf(payments);
  }

  /** The counts so far. */
  Tally tally() {
    Map<Pay, Integer> by = new LinkedHashMap<>();
    payments.values().forEach(p -> by.merge(p, 1, Integer::sum));
    return new Tally(
        orders.get(),
        payments.size(),
        by.getOrDefault(Pay.PAID, 0),
        by.getOrDefault(Pay.UNPAID, 0),
        createGaveUp.get(),
        payGaveUp.get(),
        http.lastFailure());
  }

  /**
   * The buyers' counts.
   *
   * @param orders buyers started
   * @param created payments the API answered for
   * @param paid payments the sandbox answered the pay call for
   * @param unpaid payments left unpaid on purpose
   * @param createGaveUp buyers whose create got no 2xx within 90 s (or a 4xx)
   * @param payGaveUp buyers whose pay call got no 2xx within 90 s (or a 4xx)
   * @param lastFailure the last failed call's answer or error, "" if none
   */
  record Tally(
      int orders,
      int created,
      int paid,
      int unpaid,
      int createGaveUp,
      int payGaveUp,
      String lastFailure) {}

  private void next() {
    int n = orders.incrementAndGet();
    Map<String, Object> order;
    boolean pay;
    synchronized (random) {
      order = order(n);
      pay = random.nextInt(10) != 0;
    }
    String body;
    try {
      body = JSON.writeValueAsString(order);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
    long amountMinor = ((Number) order.get("amountMinor")).longValue();
    buyers.execute(() -> buy(n, body, pay, amountMinor));
  }

  private Map<String, Object> order(int n) {
    List<String> courses = new ArrayList<>(COURSES);
    Collections.shuffle(courses, random);
    Map<String, Object> order = new LinkedHashMap<>();
    order.put("tenantId", TENANT);
    order.put("orderId", "soak-" + n);
    order.put("userId", "buyer-" + random.nextInt(100));
    order.put("amountMinor", 100 + random.nextInt(20_000));
    order.put("currency", random.nextBoolean() ? "USD" : "EUR");
    order.put("courseIds", courses.subList(0, 1 + random.nextInt(3)));
    order.put("channel", "sandbox");
    return order;
  }

  private void buy(int n, String body, boolean pay, long amountMinor) {
    HttpRequest create =
        RetryingHttp.post(api.resolve("/v1/payments"), body, Duration.ofSeconds(15))
            .header("Idempotency-Key", "soak-" + n)
            .header("Authorization", "Bearer " + apiKey)
            .build();
    Optional<HttpResponse<String>> created = http.send(create);
    if (created.isEmpty()) {
      createGaveUp.incrementAndGet();
      return;
    }
    String paymentId;
    try {
      paymentId = JSON.readTree(created.get().body()).path("payment").path("paymentId").asText();
    } catch (JsonProcessingException e) {
      createGaveUp.incrementAndGet();
      return;
    }
    payments.put(paymentId, pay ? Pay.UNKNOWN : Pay.UNPAID);
    if (pay) {
      URI payUri = sandbox.resolve("/sandbox/v1/payments/" + paymentId + "/pay");
      if (http.send(RetryingHttp.post(payUri, "{}", Duration.ofSeconds(30)).build()).isPresent()) {
        payments.put(paymentId, Pay.PAID);
        paid.accept(paymentId, amountMinor);
      } else {
        payGaveUp.incrementAndGet();
      }
    }
  }
}
