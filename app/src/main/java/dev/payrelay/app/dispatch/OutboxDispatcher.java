package dev.payrelay.app.dispatch;

import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.jobs.LeaseDeadline;
import dev.payrelay.domain.crash.CrashPoint;
import dev.payrelay.domain.crash.CrashPoints;
import dev.payrelay.domain.failure.FailureText;
import dev.payrelay.ledger.outbox.ClaimedEvent;
import dev.payrelay.ledger.outbox.OutboxStore;
import dev.payrelay.workflows.PaymentLogContext;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drains the outbox into Temporal (DESIGN invariant 5): claim due rows in a short transaction with
 * a lease, hand each to its payment's workflow outside any transaction (payments in parallel, a
 * payment's events in order), then mark it DISPATCHED only where the lease token still matches. A
 * failed hand-off returns the row to PENDING with a backoff computed in SQL time, so Temporal being
 * down loses nothing.
 *
 * <p>At {@link #start()} it first takes back the claims a previous life of the same owner left
 * (killed between claim and write-back): they are due at once instead of after their lease or the
 * re-dispatch delay. Owner names must therefore be stable across restarts and unique per instance.
 *
 * <p>Every hand-off of a claim runs under its {@link LeaseDeadline}, a third of the lease after the
 * claim (issue 25 row 11): a Temporal frontend that accepts and never answers fails the call there
 * with {@code DEADLINE_EXCEEDED}, an event whose turn comes after it is not started, and both are
 * released for retry after a backoff ({@link OutboxStore#releaseForRetry}) with a {@code
 * last_error} naming the deadline while the lease still holds, so no second dispatcher claims a row
 * whose hand-off is still in flight. Giving up is chosen over renewing the lease: a frontend that
 * does not answer within a third of the lease is down for this round, and the backoff retries the
 * row later.
 *
 * <p>Polling adapts: a full batch goes again at once; an empty round doubles the sleep up to {@code
 * idlePollMax}; {@link #wake()} (called after a local commit) cuts the sleep short.
 *
 * <p>A round claims no more rows than its {@link HandoffWindow} has room for: events handed off
 * whose signal no workflow task has handled yet are at most {@link
 * PayrelayConfig.DispatcherSettings#window()}, so a backlog waits in the outbox, not in Temporal's
 * task queue. After a full claim (a backlog) the loop waits until there is room for a batch, or
 * half the window if that is less: a claim is several statements, and claiming one row each time a
 * slot frees would cost them per event; otherwise any room will do. While it waits it looks at the
 * window every 50 ms and sweeps it every 200 ms. Rows handed over again (overdue DISPATCHED rows)
 * take no slot.
 */
public final class OutboxDispatcher implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(OutboxDispatcher.class);
  private static final Duration MIN_POLL = Duration.ofMillis(20);
  private static final Duration WINDOW_WAIT = Duration.ofMillis(100);

  private final OutboxStore outbox;
  private final Predicate<ClaimedEvent> handoff;
  private final HandoffWindow window;
  private final PayrelayConfig.DispatcherSettings settings;
  private final String owner;
  private final MeterRegistry metrics;
  private final CrashPoints crashPoints;
  private final Semaphore wakeups = new Semaphore(0);
  private final Semaphore handoffSlots;
  private final ExecutorService handoffThreads =
      Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("outbox-handoff-", 0).factory());
  private final ScheduledExecutorService deadlineTimer =
      Executors.newSingleThreadScheduledExecutor(
          r -> Thread.ofPlatform().name("outbox-handoff-deadline").daemon().unstarted(r));
  private final Thread thread;
  private volatile boolean running = true;

  /**
   * A dispatcher (not yet started).
   *
   * @param handoff hands one event to Temporal; throws when it cannot
   * @param owner this instance's name, written as {@code lease_owner}
   */
  public OutboxDispatcher(
      OutboxStore outbox,
      Consumer<ClaimedEvent> handoff,
      PayrelayConfig.DispatcherSettings settings,
      String owner,
      MeterRegistry metrics) {
    this(outbox, handoff, settings, owner, metrics, CrashPoints.none());
  }

  /**
   * As above, passing {@link CrashPoint#DISPATCH_AFTER_CLAIM} once a non-empty claim committed and
   * {@link CrashPoint#DISPATCH_AFTER_HANDOFF} between Temporal's acceptance and the DISPATCHED
   * mark; every hand-off that does not throw counts as sent, and the window has {@link
   * PayrelayConfig.DispatcherSettings#window()} slots that only failures, the outbox rows' confirms
   * and expiry free (no worker interceptor reports handled signals).
   */
  public OutboxDispatcher(
      OutboxStore outbox,
      Consumer<ClaimedEvent> handoff,
      PayrelayConfig.DispatcherSettings settings,
      String owner,
      MeterRegistry metrics,
      CrashPoints crashPoints) {
    this(
        outbox,
        event -> {
          handoff.accept(event);
          return true;
        },
        settings,
        owner,
        metrics,
        crashPoints,
        new HandoffWindow(settings.window(), metrics));
  }

  /**
   * The dispatcher a worker runs.
   *
   * @param handoff hands one event to Temporal: true when it was sent, false when nothing was sent
   *     (a closed run had taken the event); throws when it cannot
   * @param window the hand-off window, whose {@link HandoffWindow#interceptor()} is on the worker
   *     that runs the workflows
   */
  public OutboxDispatcher(
      OutboxStore outbox,
      Predicate<ClaimedEvent> handoff,
      PayrelayConfig.DispatcherSettings settings,
      String owner,
      MeterRegistry metrics,
      CrashPoints crashPoints,
      HandoffWindow window) {
    this.outbox = outbox;
    this.handoff = handoff;
    this.window = window;
    this.settings = settings;
    this.owner = owner;
    this.metrics = metrics;
    this.crashPoints = crashPoints;
    this.handoffSlots = new Semaphore(Math.max(1, settings.handoffs()));
    this.thread = Thread.ofPlatform().name("outbox-dispatcher").daemon().unstarted(this::loop);
  }

  /**
   * Takes back this owner's claims from a previous life, then starts the dispatch loop on its own
   * thread. A database that is down at this moment only delays the take-back to the leases' expiry.
   */
  public OutboxDispatcher start() {
    try {
      int released = outbox.releaseClaimsOf(owner);
      if (released > 0) {
        log.info(
            "took back {} outbox claim(s) a previous run of {} left; due now", released, owner);
      }
    } catch (RuntimeException e) {
      log.warn("could not take back {}'s earlier claims (database down?): {}", owner, e.toString());
    }
    thread.start();
    return this;
  }

  /** Asks for a round now, e.g. right after this process committed an outbox event. */
  public void wake() {
    wakeups.release();
  }

  /**
   * Runs one claim round: hands the claimed events to Temporal, different payments in parallel (up
   * to {@link PayrelayConfig.DispatcherSettings#handoffs()} at once), each payment's events one
   * after another in claim order, then writes back on this thread: each failed hand-off returns to
   * PENDING with a backoff, and the handed-off events are marked DISPATCHED in one statement. Every
   * hand-off ends by the claim's {@link LeaseDeadline}, a third of {@link
   * PayrelayConfig.DispatcherSettings#lease()} after the claim. It claims at most the batch size,
   * and no more than the hand-off window has room for (none when it is full).
   *
   * @return how many rows were claimed
   */
  public int dispatchOnce() {
    return dispatchOnce(claimLimit());
  }

  private int claimLimit() {
    return Math.min(settings.batchSize(), window.room());
  }

  /** The room the loop waits for before it claims: a batch, or half the window if less. */
  private int claimAtLeast() {
    return Math.max(1, Math.min(settings.batchSize(), window.size() / 2));
  }

  private int dispatchOnce(int limit) {
    if (limit <= 0) {
      return 0;
    }
    LeaseDeadline deadline = LeaseDeadline.startingNow(settings.lease());
    List<ClaimedEvent> claimed = outbox.claim(owner, limit, settings.lease());
    if (claimed.isEmpty()) {
      return 0;
    }
    crashPoints.reach(CrashPoint.DISPATCH_AFTER_CLAIM);
    Map<String, String> failures = handOffAll(claimed, deadline);
    List<ClaimedEvent> handedOff = new ArrayList<>();
    for (ClaimedEvent event : claimed) {
      String failure = failures.get(event.eventId());
      if (failure == null) {
        handedOff.add(event);
        continue;
      }
      try (PaymentLogContext ignored = PaymentLogContext.of(event.paymentId(), event.eventId())) {
        releaseForRetry(event, failure);
      }
    }
    markDispatched(handedOff);
    return claimed.size();
  }

  /**
   * Hands off every claimed event.
   *
   * @return why each event that was not handed off was not, by event id
   */
  private Map<String, String> handOffAll(List<ClaimedEvent> claimed, LeaseDeadline deadline) {
    Map<String, List<ClaimedEvent>> byPayment = new LinkedHashMap<>();
    for (ClaimedEvent event : claimed) {
      byPayment.computeIfAbsent(event.paymentId(), id -> new ArrayList<>()).add(event);
    }
    Map<String, String> failures = new ConcurrentHashMap<>();
    Set<String> handedOff = ConcurrentHashMap.newKeySet();
    if (byPayment.size() == 1 || settings.handoffs() <= 1) {
      byPayment.values().forEach(events -> handOffInOrder(events, deadline, handedOff, failures));
      return failures;
    }
    handOffInParallel(byPayment.values(), deadline, handedOff, failures);
    for (ClaimedEvent event : claimed) {
      if (!handedOff.contains(event.eventId())) {
        failures.putIfAbsent(event.eventId(), "not handed off: the dispatcher was stopping");
      }
    }
    return failures;
  }

  /**
   * Hands off each payment's events in order on the hand-off threads, at most {@link
   * PayrelayConfig.DispatcherSettings#handoffs()} payments at once; returns when all are done, or
   * when interrupted (cancelling the rest).
   */
  private void handOffInParallel(
      Collection<List<ClaimedEvent>> payments,
      LeaseDeadline deadline,
      Set<String> handedOff,
      Map<String, String> failures) {
    List<Future<?>> running = new ArrayList<>();
    try {
      for (List<ClaimedEvent> events : payments) {
        handoffSlots.acquire();
        running.add(
            handoffThreads.submit(
                () -> {
                  try {
                    handOffInOrder(events, deadline, handedOff, failures);
                  } finally {
                    handoffSlots.release();
                  }
                }));
      }
      for (Future<?> f : running) {
        f.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      running.forEach(f -> f.cancel(true));
    } catch (ExecutionException e) {
      log.warn("outbox hand-off thread failed: {}", FailureText.of(e.getCause()));
    }
  }

  /**
   * Hands off one payment's events in order, each within {@code deadline}; after a failure the rest
   * wait for the next round, so its workflow never gets a later event first.
   */
  private void handOffInOrder(
      List<ClaimedEvent> events,
      LeaseDeadline deadline,
      Set<String> handedOff,
      Map<String, String> failures) {
    String failed = null;
    for (ClaimedEvent event : events) {
      if (failed != null) {
        failures.put(event.eventId(), "an earlier event of the payment failed: " + failed);
        continue;
      }
      if (deadline.expired()) {
        failed = deadline.notStarted();
        failures.put(event.eventId(), failed);
        continue;
      }
      // A DISPATCHED row handed over again mostly reaches a run that holds its request id, which
      // the server drops unsignalled: its slot would wait for expiry.
      boolean windowed = !event.redispatch();
      if (windowed) {
        window.reserve(event.eventId());
      }
      try (PaymentLogContext ignored = PaymentLogContext.of(event.paymentId(), event.eventId())) {
        if (!deadline.get(() -> handoff.test(event), deadlineTimer)) {
          window.release(event.eventId());
        } else if (windowed) {
          window.sent(event.eventId());
        }
        handedOff.add(event.eventId());
      } catch (RuntimeException e) {
        window.release(event.eventId());
        failed = deadline.failure(FailureText.of(e));
        failures.put(event.eventId(), failed);
      }
    }
  }

  /** Returns an event whose hand-off failed to PENDING, due again after a backoff. */
  private void releaseForRetry(ClaimedEvent event, String failure) {
    log.warn(
        "hand-off of event {} ({}) failed, will retry: {}",
        event.eventId(),
        event.eventType(),
        failure);
    outbox.releaseForRetry(
        event.eventId(),
        event.leaseToken(),
        "hand-off: " + failure,
        settings.retryInitial(),
        settings.retryMax());
    metrics.counter("payrelay.outbox.handoffs", "result", "failed").increment();
  }

  /**
   * Marks the handed-off events of one claim DISPATCHED (one lease token, one statement), counting
   * each as dispatched, redispatched or already advanced (SENT by its publish, or claimed by
   * someone else after our lease expired).
   */
  private void markDispatched(List<ClaimedEvent> handedOff) {
    if (handedOff.isEmpty()) {
      return;
    }
    crashPoints.reach(CrashPoint.DISPATCH_AFTER_HANDOFF);
    Set<String> marked =
        outbox.markDispatched(
            handedOff.stream().map(ClaimedEvent::eventId).toList(),
            handedOff.getFirst().leaseToken(),
            settings.redispatchAfter());
    for (ClaimedEvent event : handedOff) {
      String result =
          !marked.contains(event.eventId())
              ? "already_advanced"
              : event.redispatch() ? "redispatched" : "dispatched";
      metrics.counter("payrelay.outbox.handoffs", "result", result).increment();
      if (log.isDebugEnabled()) {
        try (PaymentLogContext ignored = PaymentLogContext.of(event.paymentId(), event.eventId())) {
          log.debug(
              "event {} ({}) handed to its workflow: {}",
              event.eventId(),
              event.eventType(),
              result);
        }
      }
    }
  }

  private void loop() {
    Duration sleep = MIN_POLL;
    boolean backlog = false;
    while (running) {
      sweepWindow();
      int limit = claimLimit();
      int atLeast = backlog ? claimAtLeast() : 1;
      if (limit < atLeast) {
        if (!awaitRoom(atLeast)) {
          return;
        }
        continue;
      }
      int claimed;
      try {
        claimed = dispatchOnce(limit);
      } catch (RuntimeException e) {
        log.warn("outbox claim failed (database unavailable?): {}", e.toString());
        claimed = 0;
      }
      backlog = claimed >= limit;
      if (backlog) {
        sleep = MIN_POLL;
        continue;
      }
      sleep = claimed > 0 ? MIN_POLL : min(sleep.multipliedBy(2), settings.idlePollMax());
      try {
        if (wakeups.tryAcquire(sleep.toMillis(), TimeUnit.MILLISECONDS)) {
          wakeups.drainPermits();
          sleep = MIN_POLL;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** Frees the window's slots of events another worker's workflow handled. */
  private void sweepWindow() {
    try {
      window.sweep(outbox::unconfirmedOf);
    } catch (RuntimeException e) {
      log.debug("hand-off window sweep failed (database unavailable?): {}", e.toString());
    }
  }

  /**
   * Waits a moment for room for {@code events} in the window.
   *
   * @return false when interrupted
   */
  private boolean awaitRoom(int events) {
    try {
      window.awaitRoom(events, WINDOW_WAIT);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  @Override
  public void close() {
    running = false;
    thread.interrupt();
    try {
      thread.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    handoffThreads.shutdownNow();
    deadlineTimer.shutdownNow();
  }
}
