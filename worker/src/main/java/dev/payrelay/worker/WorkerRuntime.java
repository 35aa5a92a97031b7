package dev.payrelay.worker;

import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import dev.payrelay.activities.ChannelActivitiesImpl;
import dev.payrelay.activities.DailyReconciliationActivitiesImpl;
import dev.payrelay.activities.EntitlementActivitiesImpl;
import dev.payrelay.activities.LedgerActivitiesImpl;
import dev.payrelay.activities.OutboxActivitiesImpl;
import dev.payrelay.activities.ReconciliationActivitiesImpl;
import dev.payrelay.activities.ResolutionActivitiesImpl;
import dev.payrelay.activities.amqp.AmqpConfig;
import dev.payrelay.activities.amqp.AmqpTopology;
import dev.payrelay.activities.amqp.ConfirmingPublisher;
import dev.payrelay.activities.amqp.QueueBinding;
import dev.payrelay.domain.channel.PaymentChannel;
import dev.payrelay.sql.ClaimedEvent;
import dev.payrelay.sql.OutboxRetention;
import dev.payrelay.sql.OutboxStatistics;
import dev.payrelay.workflows.DailyReconciliationWorkflowImpl;
import dev.payrelay.workflows.PaymentWorkflowImpl;
import dev.payrelay.workflows.ReconciliationWorkflowImpl;
import dev.payrelay.workflows.TaskQueues;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.jooq.DSLContext;

/**
 * The worker role: declares the AMQP topology, runs the Temporal workers (payment workflows and
 * their activities; reconciliation workflows, daily and per day, and theirs), keeps the daily
 * reconciliation's trigger ({@link DailyReconciliationTrigger}), runs the outbox dispatcher and the
 * outbox's housekeeping (gauges, retention purge).
 */
public final class WorkerRuntime implements AutoCloseable {

  private final ConfirmingPublisher publisher;
  private final WorkerFactory factory;
  private final OutboxDispatcher dispatcher;
  private final OutboxMaintenance maintenance;
  private final DailyReconciliationTrigger daily;
  private final ExpirySweep sweep;

  private WorkerRuntime(
      ConfirmingPublisher publisher,
      WorkerFactory factory,
      OutboxDispatcher dispatcher,
      OutboxMaintenance maintenance,
      DailyReconciliationTrigger daily,
      ExpirySweep sweep) {
    this.publisher = publisher;
    this.factory = factory;
    this.dispatcher = dispatcher;
    this.maintenance = maintenance;
    this.daily = daily;
    this.sweep = sweep;
  }

  /**
   * Declares the topology, starts polling Temporal and draining the outbox.
   *
   * @throws IllegalStateException if the broker refuses the topology
   */
  public static WorkerRuntime start(
      PayrelayConfig config, Services services, TemporalConnection temporal, String owner) {
    return start(config, services, temporal, owner, event -> {});
  }

  /**
   * As {@link #start(PayrelayConfig, Services, TemporalConnection, String)}, telling {@code
   * handedOff} of every event after Temporal accepted it (e.g. {@code dev} prints its UI link).
   */
  public static WorkerRuntime start(
      PayrelayConfig config,
      Services services,
      TemporalConnection temporal,
      String owner,
      Consumer<ClaimedEvent> handedOff) {
    PayrelayConfig.AmqpSettings amqp = config.amqp();
    declareTopology(amqp, amqp.queues());
    ConfirmingPublisher publisher =
        new ConfirmingPublisher(
            new AmqpConfig(
                amqp.uri(),
                amqp.exchange(),
                amqp.confirmTimeout(),
                AmqpConfig.DEFAULT_CHANNEL_POOL_SIZE,
                "payrelay-" + owner));
    List<PaymentChannel> channels = List.of(ApiRuntime.sandboxChannel(config));
    WorkerFactory factory = WorkerFactory.newInstance(temporal.client());
    Worker worker = factory.newWorker(TaskQueues.PAYMENTS);
    worker.registerWorkflowImplementationTypes(PaymentWorkflowImpl.class);
    worker.registerActivitiesImplementations(
        new OutboxActivitiesImpl(services.outbox(), services.deadEvents(), publisher),
        new EntitlementActivitiesImpl(services.entitlements()),
        new ResolutionActivitiesImpl(services.resolutions(), services.payments()),
        new LedgerActivitiesImpl(services.payments(), services.ledger(), services.deadlines()),
        new ChannelActivitiesImpl(channels));
    DailyReconciliationTrigger daily;
    try {
      daily = reconciliation(factory, config, services, temporal, channels);
    } catch (RuntimeException e) {
      publisher.close();
      throw e;
    }
    factory.start();
    WorkflowHandoff handoff =
        new WorkflowHandoff(
            temporal.client(), amqp.publishRetries(), config.temporal().channelQueries());
    OutboxDispatcher dispatcher =
        new OutboxDispatcher(
                services.outbox(),
                event -> {
                  handoff.handOff(event);
                  handedOff.accept(event);
                },
                config.dispatcher(),
                owner,
                services.metrics())
            .start();
    Duration sweepEvery = config.temporal().expirySweep();
    ExpirySweep sweep =
        sweepEvery.isZero()
            ? null
            : new ExpirySweep(
                    services.payments(),
                    temporal.client(),
                    amqp.publishRetries(),
                    config.temporal().channelQueries(),
                    config.temporal().expirySweepGrace())
                .start(sweepEvery);
    return new WorkerRuntime(
        publisher, factory, dispatcher, maintenance(config, services), daily, sweep);
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
      List<PaymentChannel> channels) {
    Worker worker = factory.newWorker(TaskQueues.RECONCILIATION);
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
        config.temporal().dailyReconciliation(),
        temporal,
        dailyStarts,
        channels.stream().map(PaymentChannel::name).toList());
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

  /** What starts the daily reconciliation in this worker. */
  public DailyReconciliationTrigger.Mode dailyReconciliation() {
    return daily.mode();
  }

  /** Asks the dispatcher for a round now (after a local outbox commit). */
  public void wakeDispatcher() {
    dispatcher.wake();
  }

  private static void declareTopology(PayrelayConfig.AmqpSettings amqp, List<QueueBinding> queues) {
    ConnectionFactory factory = new ConnectionFactory();
    try {
      factory.setUri(amqp.uri());
      try (Connection connection = factory.newConnection("payrelay-topology")) {
        new AmqpTopology().declare(connection, amqp.exchange(), queues);
      }
    } catch (Exception e) {
      throw new IllegalStateException(
          "cannot declare AMQP topology at " + redact(amqp.uri()) + ": " + e.getMessage(), e);
    }
  }

  static String redact(String uri) {
    return uri.replaceAll("//[^@/]*@", "//***@");
  }

  @Override
  public void close() {
    maintenance.close();
    daily.close();
    if (sweep != null) {
      sweep.close();
    }
    dispatcher.close();
    factory.shutdown();
    factory.awaitTermination(5, java.util.concurrent.TimeUnit.SECONDS);
    publisher.close();
  }
}
