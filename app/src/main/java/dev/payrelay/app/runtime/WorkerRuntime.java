package dev.payrelay.app.runtime;

import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import dev.payrelay.activities.ChannelActivitiesImpl;
import dev.payrelay.activities.DailyReconciliationActivitiesImpl;
import dev.payrelay.activities.EntitlementActivitiesImpl;
import dev.payrelay.activities.LedgerActivitiesImpl;
import dev.payrelay.activities.MerchantRefunds;
import dev.payrelay.activities.OutboxActivitiesImpl;
import dev.payrelay.activities.ReconciliationActivitiesImpl;
import dev.payrelay.activities.RefundActivitiesImpl;
import dev.payrelay.activities.RefundOperatorDesk;
import dev.payrelay.activities.ResolutionActivitiesImpl;
import dev.payrelay.activities.SignalIdentity;
import dev.payrelay.amqp.AmqpConfig;
import dev.payrelay.amqp.AmqpTopology;
import dev.payrelay.amqp.QueueBinding;
import dev.payrelay.amqp.TopologyRefusedException;
import dev.payrelay.amqp.consume.ConsumerSettings;
import dev.payrelay.amqp.consume.ConsumerTopology;
import dev.payrelay.amqp.publish.ConfirmingPublisher;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.config.Sizing;
import dev.payrelay.app.dispatch.HandoffWindow;
import dev.payrelay.app.dispatch.OutboxDispatcher;
import dev.payrelay.app.dispatch.WorkflowHandoff;
import dev.payrelay.app.jobs.AttentionGauge;
import dev.payrelay.app.jobs.DailyReconciliationTrigger;
import dev.payrelay.app.jobs.InboxRetentionJob;
import dev.payrelay.app.jobs.OutboxGauges;
import dev.payrelay.app.jobs.OutboxMaintenance;
import dev.payrelay.app.jobs.PagedJob;
import dev.payrelay.app.temporal.PaymentLogInterceptor;
import dev.payrelay.app.temporal.TemporalConnection;
import dev.payrelay.domain.channel.ChannelRegistry;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.ledger.db.JobLeases;
import dev.payrelay.ledger.inbox.WebhookInboxRetention;
import dev.payrelay.ledger.outbox.ClaimedEvent;
import dev.payrelay.ledger.outbox.OutboxRetention;
import dev.payrelay.ledger.outbox.OutboxStatistics;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.refund.RefundOutcomes;
import dev.payrelay.ledger.refund.RefundResolutions;
import dev.payrelay.ledger.refund.RefundRow;
import dev.payrelay.ledger.refund.RefundStore;
import dev.payrelay.ledger.refund.RefundSubmissions;
import dev.payrelay.workflows.DailyReconciliationWorkflowImpl;
import dev.payrelay.workflows.PaymentWorkflowImpl;
import dev.payrelay.workflows.ReconciliationWorkflowImpl;
import dev.payrelay.workflows.RefundWorkflowImpl;
import dev.payrelay.workflows.TaskQueues;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import io.temporal.worker.WorkerFactoryOptions;
import io.temporal.worker.WorkerOptions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.jooq.DSLContext;

/**
 * The worker role: declares the AMQP topology, runs the Temporal workers (payment and refund
 * workflows and their activities; reconciliation workflows, daily and per day, and theirs), keeps
 * the daily reconciliation's trigger ({@link DailyReconciliationTrigger}), runs the outbox
 * dispatcher and the outbox's housekeeping (gauges, retention purge) and the webhook inbox's purge
 * ({@link InboxRetentionJob}). Its activity and workflow task slots, pollers, workflow cache and
 * threads and publishing channels come from {@link Sizing}, for the delivery pool it is given.
 */
public final class WorkerRuntime implements AutoCloseable {

  private static final org.slf4j.Logger log =
      org.slf4j.LoggerFactory.getLogger(WorkerRuntime.class);

  private final ConfirmingPublisher publisher;
  private final WorkerFactory factory;
  private final OutboxDispatcher dispatcher;
  private final OutboxMaintenance maintenance;
  private final InboxRetentionJob inboxRetention;
  private final DailyReconciliationTrigger daily;
  private final List<PagedJob<?>> jobs;
  private final AttentionGauge attention;
  private final List<ConsumerRuntime> consumers;

  private WorkerRuntime(
      ConfirmingPublisher publisher,
      WorkerFactory factory,
      OutboxDispatcher dispatcher,
      OutboxMaintenance maintenance,
      InboxRetentionJob inboxRetention,
      DailyReconciliationTrigger daily,
      List<PagedJob<?>> jobs,
      AttentionGauge attention,
      List<ConsumerRuntime> consumers) {
    this.attention = attention;
    this.consumers = consumers;
    this.publisher = publisher;
    this.factory = factory;
    this.dispatcher = dispatcher;
    this.maintenance = maintenance;
    this.inboxRetention = inboxRetention;
    this.daily = daily;
    this.jobs = jobs;
  }

  /**
   * Declares the topology, starts polling Temporal and draining the outbox.
   *
   * @param services the delivery pool's services: at least {@link Sizing#workerPool()} connections
   * @throws IllegalStateException if the broker refuses the topology
   * @throws IllegalArgumentException if the pool is smaller than the sizing it must serve
   */
  public static WorkerRuntime start(
      PayrelayConfig config, Services services, TemporalConnection temporal, String owner) {
    return start(config, services, temporal, owner, event -> {});
  }

  /**
   * As {@link #start(PayrelayConfig, Services, TemporalConnection, String)}, telling {@code
   * handedOff} of every event Temporal accepted (e.g. {@code dev} prints its UI link); an event
   * whose closed run had taken it is not sent again, nor told.
   */
  public static WorkerRuntime start(
      PayrelayConfig config,
      Services services,
      TemporalConnection temporal,
      String owner,
      Consumer<ClaimedEvent> handedOff) {
    requirePool(services, config.sizing());
    List<ConsumerSettings> ownConsumers = ownConsumers(config);
    declareTopology(config.amqp(), config.amqp().queues(), ownConsumers);
    ConfirmingPublisher publisher = publisher(config, owner, ownConsumers);
    ChannelRegistry channels = ApiRuntime.channelRegistry(config);
    HandoffWindow window = new HandoffWindow(config.dispatcher().window(), services.metrics());
    WorkerFactory factory = factory(config, temporal, window);
    payments(factory, config, services, publisher, channels);
    DailyReconciliationTrigger daily;
    try {
      daily = reconciliation(factory, config, services, temporal, channels);
    } catch (RuntimeException e) {
      publisher.close();
      throw e;
    }
    factory.start();
    WorkflowHandoff handoff = handoff(config, services, temporal);
    OutboxDispatcher dispatcher = dispatcher(config, services, owner, handoff, window, handedOff);
    List<PagedJob<?>> jobs = SafetyNets.start(config, services, handoff, owner);
    List<ConsumerRuntime> consumers = consumers(config, owner, services);
    return new WorkerRuntime(
        publisher,
        factory,
        dispatcher,
        maintenance(config, services),
        inboxRetention(config, services, owner),
        daily,
        jobs,
        attention(temporal, services),
        consumers);
  }

  /**
   * The Temporal workers' factory, sized by {@link Sizing}; activities log with their payment, and
   * every handled {@code onOutboxEvent} signal frees its slot in the dispatcher's {@code window}.
   */
  private static WorkerFactory factory(
      PayrelayConfig config, TemporalConnection temporal, HandoffWindow window) {
    return WorkerFactory.newInstance(
        temporal.client(),
        WorkerFactoryOptions.newBuilder(config.sizing().factoryOptions())
            .setWorkerInterceptors(new PaymentLogInterceptor(), window.interceptor())
            .build());
  }

  /** How the worker hands events and repairs to their workflows: signals, with retries. */
  private static WorkflowHandoff handoff(
      PayrelayConfig config, Services services, TemporalConnection temporal) {
    RefundStore refunds = new RefundStore(services.database().dsl());
    return new WorkflowHandoff(
        temporal.client(),
        config.amqp().publishRetries(),
        config.temporal().channelQueries(),
        config.access().signalTokens().tokens(),
        config.temporal().refundQueries(),
        refunds::find,
        services.outbox());
  }

  /** The consumers that are enabled, started; the ones started are closed if one fails. */
  private static List<ConsumerRuntime> consumers(
      PayrelayConfig config, String owner, Services services) {
    List<ConsumerRuntime> started = new ArrayList<>();
    try {
      for (ConsumerSettings kit : ownConsumers(config)) {
        started.add(ConsumerRuntime.start(config, owner, services.metrics(), kit));
      }
    } catch (RuntimeException e) {
      started.forEach(ConsumerRuntime::close);
      throw e;
    }
    return List.copyOf(started);
  }

  /**
   * The consumers this worker runs: {@code notifications} and {@code entitlements}, each when
   * enabled.
   */
  private static List<ConsumerSettings> ownConsumers(PayrelayConfig config) {
    return config.consumers().running();
  }

  /**
   * The publisher of the outbox's events, on {@link Sizing#publishChannels()} channels. It declares
   * the topology again on every connection it opens and after a 404 for the exchange: a broker that
   * was down at start, came back empty, or lost the exchange.
   */
  private static ConfirmingPublisher publisher(
      PayrelayConfig config, String owner, List<ConsumerSettings> ownConsumers) {
    PayrelayConfig.AmqpSettings amqp = config.amqp();
    return new ConfirmingPublisher(
        new AmqpConfig(
            amqp.uri(),
            amqp.exchange(),
            amqp.confirmTimeout(),
            config.sizing().publishChannels(),
            "payrelay-" + owner),
        java.time.Clock.systemUTC(),
        amqp.queues(),
        ownConsumers);
  }

  /** Registers the payment and refund workflows and their activities on the payments task queue. */
  private static void payments(
      WorkerFactory factory,
      PayrelayConfig config,
      Services services,
      ConfirmingPublisher publisher,
      ChannelRegistry channels) {
    Worker worker = factory.newWorker(TaskQueues.PAYMENTS, config.sizing().paymentWorkerOptions());
    worker.registerWorkflowImplementationTypes(PaymentWorkflowImpl.class, RefundWorkflowImpl.class);
    SignalIdentity identity =
        new SignalIdentity(config.access().signalTokens().tokens(), config.isProduction());
    DSLContext dsl = services.database().dsl();
    RefundStore refunds = new RefundStore(dsl);
    RefundOutcomes outcomes = new RefundOutcomes(dsl, new OutboxWriter(new EventJson()));
    worker.registerActivitiesImplementations(
        new OutboxActivitiesImpl(
            services.outbox(),
            services.deadEvents(),
            identity,
            publisher,
            services.crashPoints(),
            services.metrics(),
            refundId -> refunds.find(refundId).map(RefundRow::paymentId)),
        new RefundActivitiesImpl(
            channels,
            services.payments(),
            refunds,
            new RefundSubmissions(dsl, outcomes),
            outcomes,
            new RefundOperatorDesk(
                new RefundResolutions(dsl, outcomes),
                refunds,
                identity,
                new MerchantRefunds(channels, services.payments())),
            services.crashPoints()),
        new EntitlementActivitiesImpl(services.entitlements(), services.crashPoints()),
        new ResolutionActivitiesImpl(services.resolutions(), identity, services.crashPoints()),
        new LedgerActivitiesImpl(
            services.payments(),
            services.ledger(),
            services.deadlines(),
            identity,
            services.crashPoints()),
        new ChannelActivitiesImpl(channels, services.payments(), services.ledger()));
  }

  /**
   * The outbox dispatcher, started: hands each claimed event to its workflow, then tells {@code
   * handedOff} when something was sent (not for an event whose closed run had taken it).
   */
  private static OutboxDispatcher dispatcher(
      PayrelayConfig config,
      Services services,
      String owner,
      WorkflowHandoff handoff,
      HandoffWindow window,
      Consumer<ClaimedEvent> handedOff) {
    return new OutboxDispatcher(
            services.outbox(),
            event -> {
              boolean sent = handoff.handOff(event.handoff());
              if (sent) {
                handedOff.accept(event);
              }
              return sent;
            },
            config.dispatcher(),
            owner,
            services.metrics(),
            services.crashPoints(),
            window)
        .start();
  }

  /**
   * Registers the reconciliation workflows and activities on their own task queue (statements are
   * slow and bulky; they never delay a payment's activities) and keeps the daily trigger.
   */
  private static DailyReconciliationTrigger reconciliation(
      WorkerFactory factory,
      PayrelayConfig config,
      Services services,
      TemporalConnection temporal,
      ChannelRegistry channels) {
    Worker worker =
        factory.newWorker(TaskQueues.RECONCILIATION, config.sizing().reconciliationWorkerOptions());
    worker.registerWorkflowImplementationTypes(
        ReconciliationWorkflowImpl.class, DailyReconciliationWorkflowImpl.class);
    DailyReconciliationActivitiesImpl dailyStarts =
        new DailyReconciliationActivitiesImpl(temporal.client(), services.reconciliation());
    worker.registerActivitiesImplementations(
        new ReconciliationActivitiesImpl(
            services.reconciliation(),
            channels,
            services.ledger(),
            services.payments(),
            services.entitlements()),
        dailyStarts);
    // The Schedule's first action may come before the worker polls; it waits in the task queue.
    return DailyReconciliationTrigger.start(
        config.temporal().dailyReconciliation(), temporal, dailyStarts, channels.names());
  }

  /**
   * Refuses a delivery pool smaller than the sizing: activity slots would then wait for
   * connections, the very queueing the sizing exists to prevent.
   */
  private static void requirePool(Services services, Sizing sizing) {
    int connections = services.database().maxPoolSize();
    if (connections < sizing.workerPool()) {
      throw new IllegalArgumentException(
          "the worker's pool %s has %d connections, but its sizing (PAYRELAY_DB_POOL_WORKER) needs %d"
              .formatted(services.database().poolName(), connections, sizing.workerPool()));
    }
  }

  private static InboxRetentionJob inboxRetention(
      PayrelayConfig config, Services services, String owner) {
    return new InboxRetentionJob(
            new JobLeases(services.database().dsl()),
            new WebhookInboxRetention(services.database().dsl()),
            config.inbox(),
            owner,
            services.metrics())
        .start();
  }

  private static OutboxMaintenance maintenance(PayrelayConfig config, Services services) {
    DSLContext dsl = services.database().dsl();
    return new OutboxMaintenance(
            new OutboxRetention(dsl),
            new OutboxGauges(new OutboxStatistics(dsl), services.metrics()),
            config.outbox(),
            services.metrics())
        .start();
  }

  /**
   * The NEEDS_ATTENTION gauge, counting unless Temporal is the in-memory test server (no visibility
   * counts there: the gauge stays NaN, unknown).
   */
  private static AttentionGauge attention(TemporalConnection temporal, Services services) {
    AttentionGauge gauge = new AttentionGauge(temporal.client(), services.metrics());
    return temporal.kind() == TemporalConnection.Kind.IN_MEMORY ? gauge : gauge.start();
  }

  /** What starts the daily reconciliation in this worker. */
  public DailyReconciliationTrigger.Mode dailyReconciliation() {
    return daily.mode();
  }

  /** The options the Temporal worker of {@code taskQueue} runs with, as {@link Sizing} set them. */
  public WorkerOptions workerOptions(String taskQueue) {
    return factory.getWorker(taskQueue).getWorkerOptions();
  }

  /** The most AMQP channels this worker publishes on at once. */
  public int publishChannels() {
    return publisher.channelPoolSize();
  }

  /** Asks the dispatcher for a round now (after a local outbox commit). */
  public void wakeDispatcher() {
    dispatcher.wake();
  }

  /**
   * Declares the topology at start, the worker's consumers' queues and bindings included, so no
   * event published after the worker started can miss a consumer that is still connecting. A broker
   * that cannot be reached does not stop the worker: grants, channel queries and expiry need no
   * broker, and the publisher and the consumers declare the topology when they connect. A broker
   * that answers but refuses a declaration (e.g. 406 for a consumer queue with other arguments)
   * stops the start with its reply, the queue's name and the fix.
   *
   * @throws IllegalStateException when the broker refused a declaration
   */
  public static void declareTopology(
      PayrelayConfig.AmqpSettings amqp,
      List<QueueBinding> queues,
      List<ConsumerSettings> consumers) {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setConnectionTimeout((int) amqp.confirmTimeout().toMillis());
    try {
      factory.setUri(amqp.uri());
      try (Connection connection = factory.newConnection("payrelay-topology")) {
        new AmqpTopology().declare(connection, amqp.exchange(), queues);
        for (ConsumerSettings consumer : consumers) {
          new ConsumerTopology(amqp.exchange(), consumer).declare(connection);
        }
      }
    } catch (TopologyRefusedException e) {
      // Running on would leave a configured queue unbound and its events DEAD as UNROUTABLE.
      throw new IllegalStateException(
          "RabbitMQ at " + redact(amqp.uri()) + ": " + e.getMessage(), e);
    } catch (Exception e) {
      log.warn(
          "RabbitMQ at {} not ready at start ({}); the worker runs without it, publishing waits"
              + " and declares the topology when the broker answers",
          redact(amqp.uri()),
          redact(String.valueOf(e)));
    }
  }

  public static String redact(String uri) {
    return uri.replaceAll("//[^@/]*@", "//***@");
  }

  /**
   * What readiness reports of the broker: {@code publisher} (its connection is open and not
   * blocked; it connects on its first publish, so false before any) and {@code consumer.<name>}
   * (its connection and channels are open) for each consumer that runs.
   */
  public Map<String, Boolean> brokerStatus() {
    Map<String, Boolean> status = new LinkedHashMap<>();
    status.put("publisher", publisher.isHealthy());
    for (ConsumerRuntime consumer : consumers) {
      status.put("consumer." + consumer.consumer().settings().name(), consumer.isConnected());
    }
    return status;
  }

  /** The consumers that run, notifications first (for tests). */
  List<ConsumerRuntime> consumers() {
    return consumers;
  }

  @Override
  public void close() {
    consumers.forEach(ConsumerRuntime::close);
    attention.close();
    maintenance.close();
    inboxRetention.close();
    daily.close();
    jobs.forEach(PagedJob::close);
    dispatcher.close();
    factory.shutdown();
    factory.awaitTermination(5, java.util.concurrent.TimeUnit.SECONDS);
    publisher.close();
  }
}
