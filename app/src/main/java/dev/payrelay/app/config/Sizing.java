package dev.payrelay.app.config;

import io.temporal.worker.WorkerFactoryOptions;
import io.temporal.worker.WorkerOptions;

/**
 * How much work each stage of a payrelay process may take on at once, derived by one rule from its
 * database pools, so that no stage accepts more than the stage behind it can serve. Before this
 * rule a worker ran with Temporal's defaults (200 concurrent activities) against 10 connections and
 * 4 AMQP channels: under load activities queued for connections and channels until their waits ran
 * out, publishes failed BROKER_UNAVAILABLE and events went DEAD.
 *
 * <p>The rule. Every payrelay thread that uses the database holds at most one connection at a time.
 * In a worker with a delivery pool of P connections ({@code PAYRELAY_DB_POOL_WORKER}):
 *
 * <ul>
 *   <li>{@value #BACKGROUND_CONNECTIONS} connections stay with the worker's background threads, one
 *       each: the outbox dispatcher, the outbox housekeeping (gauges, purge), the expiry sweep and
 *       the grant repair;
 *   <li>{@value #RECONCILIATION_ACTIVITY_SLOTS} reconciliation activity runs at a time: statements
 *       are paged, one page (or one daily start) at a time per worker is plenty;
 *   <li>payment activity slots A = P - {@value #BACKGROUND_CONNECTIONS} - {@value
 *       #RECONCILIATION_ACTIVITY_SLOTS}: A running activities never wait for a connection, and
 *       never take one the background needs. They are shared between the two kinds a payment's
 *       workflow runs: local activities (its short steps' first attempts, {@code LocalFirst} in the
 *       workflows module) get half, rounded up, and regular activities (channel calls, retries,
 *       operator actions) the rest, so A is at least 2;
 *   <li>AMQP publishing channels = A: only payment activities publish, each holding one channel
 *       through its confirm wait, so no publish waits for a channel;
 *   <li>payment workflow task slots W = A: a payment's workflow task runs its local activities and
 *       waits for them, or schedules its next activity; a wider workflow stage only lengthens the
 *       queue of activities, a narrower one leaves activity slots idle;
 *   <li>pollers per task queue = its slots, at most {@value #MAX_POLLERS} (Temporal's default), at
 *       least 2 for workflow tasks (the SDK shares them between the sticky and the normal queue): a
 *       poller takes a free slot before it polls, so more pollers than slots fetch nothing more;
 *   <li>workflow cache K = {@code PAYRELAY_WORKFLOW_CACHE} (600, Temporal's default). A cached
 *       {@code PaymentWorkflowImpl} holds up to 4 workflow threads (its run, grant, operator and
 *       channel-watch threads) and one more while a signal handler runs. They are virtual threads
 *       (JEP 444, the SDK's {@code setUsingVirtualWorkflowThreads}): parked, they cost a few
 *       kilobytes of heap instead of a platform thread each, and the SDK bounds them by the cache
 *       alone (its platform-thread limit {@code maxWorkflowThreadCount} does not apply to them).
 * </ul>
 *
 * <p>The API's ingestion pool ({@code PAYRELAY_DB_POOL_API}) is separate, so callbacks and payment
 * creation never wait behind delivery and delivery never waits behind a burst of callbacks (in one
 * shared pool of 10, {@code dev} sent about 1 event/s while 40/s were written). An HTTP request
 * holds at most one connection at a time; one beyond the pool waits up to 5 s for a connection.
 *
 * @param apiPool connections of the ingestion pool: webhooks, payment creation, admin requests
 *     ({@code PAYRELAY_DB_POOL_API}; default {@code PAYRELAY_DB_POOL}, else 10); at least 1
 * @param workerPool connections of the delivery pool: dispatcher, activities, safety nets ({@code
 *     PAYRELAY_DB_POOL_WORKER}; default {@code PAYRELAY_DB_POOL}, else 16); at least {@link
 *     #MIN_WORKER_POOL}, at most {@link #MAX_WORKER_POOL}
 * @param workflowCache workflows kept in memory between their tasks ({@code
 *     PAYRELAY_WORKFLOW_CACHE}, 600); at least 1
 */
public record Sizing(int apiPool, int workerPool, int workflowCache) {

  /** The ingestion pool when neither {@code PAYRELAY_DB_POOL_API} nor its fallback is set. */
  public static final int DEFAULT_API_POOL = 10;

  /**
   * The delivery pool when neither {@code PAYRELAY_DB_POOL_WORKER} nor its fallback is set: 11
   * payment activities, 11 publishing channels.
   */
  public static final int DEFAULT_WORKER_POOL = 16;

  /** The workflow cache when {@code PAYRELAY_WORKFLOW_CACHE} is unset: Temporal's default. */
  public static final int DEFAULT_WORKFLOW_CACHE = 600;

  /** Connections of the worker's background threads: dispatcher, housekeeping, two safety nets. */
  public static final int BACKGROUND_CONNECTIONS = 4;

  /** Reconciliation activities at a time per worker. */
  public static final int RECONCILIATION_ACTIVITY_SLOTS = 1;

  /** Workflow tasks at a time on the reconciliation task queue (rare, small). */
  public static final int RECONCILIATION_WORKFLOW_TASK_SLOTS = 2;

  /** The most pollers per task queue and task kind: the Temporal Java SDK's default. */
  public static final int MAX_POLLERS = 5;

  /** RabbitMQ's default {@code channel_max} per connection; payrelay publishes on one. */
  public static final int MAX_CHANNELS = 2047;

  /**
   * The smallest delivery pool: the background's connections, the reconciliation activity, and one
   * local and one regular payment activity.
   */
  public static final int MIN_WORKER_POOL =
      BACKGROUND_CONNECTIONS + RECONCILIATION_ACTIVITY_SLOTS + 2;

  /** The largest delivery pool: one publishing channel per payment activity slot must exist. */
  public static final int MAX_WORKER_POOL =
      MAX_CHANNELS + BACKGROUND_CONNECTIONS + RECONCILIATION_ACTIVITY_SLOTS;

  /**
   * Validates the settings.
   *
   * @throws IllegalArgumentException naming the variable whose value is out of range
   */
  public Sizing {
    if (apiPool < 1) {
      throw new IllegalArgumentException(
          "PAYRELAY_DB_POOL_API (or PAYRELAY_DB_POOL when it is unset) must be at least 1, got: "
              + apiPool);
    }
    if (workerPool < MIN_WORKER_POOL || workerPool > MAX_WORKER_POOL) {
      throw new IllegalArgumentException(
          ("PAYRELAY_DB_POOL_WORKER (or PAYRELAY_DB_POOL when it is unset) must be %d..%d"
                  + " (%d background connections + %d reconciliation activity + at least 2"
                  + " payment activities, one local and one regular; at most %d AMQP channels),"
                  + " got: %d")
              .formatted(
                  MIN_WORKER_POOL,
                  MAX_WORKER_POOL,
                  BACKGROUND_CONNECTIONS,
                  RECONCILIATION_ACTIVITY_SLOTS,
                  MAX_CHANNELS,
                  workerPool));
    }
    if (workflowCache < 1) {
      throw new IllegalArgumentException(
          "PAYRELAY_WORKFLOW_CACHE must be at least 1 (0 would replay a payment's whole history"
              + " on each of its tasks), got: "
              + workflowCache);
    }
  }

  /**
   * Payment activities (publish, grant, ledger, channel query) at a time, local and regular
   * together: A.
   */
  public int paymentActivitySlots() {
    return workerPool - BACKGROUND_CONNECTIONS - RECONCILIATION_ACTIVITY_SLOTS;
  }

  /** Local payment activities at a time: half of A, rounded up. */
  public int localActivitySlots() {
    return (paymentActivitySlots() + 1) / 2;
  }

  /** Regular payment activities at a time: A less the local ones, at least 1. */
  public int regularActivitySlots() {
    return paymentActivitySlots() - localActivitySlots();
  }

  /** Confirm-mode channels of the worker's publisher: one per payment activity slot. */
  public int publishChannels() {
    return paymentActivitySlots();
  }

  /** Payment workflow tasks at a time: W = A, at least 2. */
  public int paymentWorkflowTaskSlots() {
    return Math.max(2, paymentActivitySlots());
  }

  /** The factory's cache and thread limits. */
  public WorkerFactoryOptions factoryOptions() {
    return WorkerFactoryOptions.newBuilder()
        .setWorkflowCacheSize(workflowCache)
        .setUsingVirtualWorkflowThreads(true)
        .build();
  }

  /**
   * The payments task queue's worker: its regular and local activity slots, W workflow task slots,
   * their pollers.
   */
  public WorkerOptions paymentWorkerOptions() {
    return workerOptions(regularActivitySlots(), localActivitySlots(), paymentWorkflowTaskSlots());
  }

  /** The reconciliation task queue's worker (its workflows run no local activity). */
  public WorkerOptions reconciliationWorkerOptions() {
    return workerOptions(RECONCILIATION_ACTIVITY_SLOTS, 1, RECONCILIATION_WORKFLOW_TASK_SLOTS);
  }

  private static WorkerOptions workerOptions(
      int activitySlots, int localActivitySlots, int workflowTaskSlots) {
    return WorkerOptions.newBuilder()
        .setMaxConcurrentActivityExecutionSize(activitySlots)
        .setMaxConcurrentLocalActivityExecutionSize(localActivitySlots)
        .setMaxConcurrentActivityTaskPollers(Math.min(activitySlots, MAX_POLLERS))
        .setMaxConcurrentWorkflowTaskExecutionSize(workflowTaskSlots)
        .setMaxConcurrentWorkflowTaskPollers(Math.max(2, Math.min(workflowTaskSlots, MAX_POLLERS)))
        .build();
  }
}
