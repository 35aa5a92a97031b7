package dev.payrelay.app.config.mapping;

import dev.payrelay.amqp.consume.ConsumerQueues;
import dev.payrelay.amqp.consume.ConsumerSettings;
import dev.payrelay.app.config.PayrelayConfig.DispatcherSettings;
import dev.payrelay.app.config.binder.ByteSize;
import dev.payrelay.app.config.binder.Doc;
import dev.payrelay.app.config.binder.DurationList;
import dev.payrelay.ledger.inbox.WebhookInboxStore;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/** The settings of the worker's background work: delivery, housekeeping, safety nets, consumers. */
public interface JobsMapping {

  /** {@code payrelay.dispatch}: the outbox dispatcher. */
  interface Dispatch {

    /** See {@link Doc}. */
    @Doc(value = "Outbox rows claimed per round.", min = "1")
    @WithDefault("50")
    int batch();

    /** See {@link Doc}. */
    @Doc(
        value =
            "The claim's lease; its hand-offs end a third of it after the claim (LeaseDeadline),"
                + " and it is how long a dead dispatcher's rows wait for another one.",
        min = DispatcherSettings.MIN_LEASE_SECONDS + "s",
        max = DispatcherSettings.MAX_LEASE_SECONDS + "s")
    @WithDefault("30s")
    Duration lease();

    /** See {@link Doc}. */
    @Doc(value = "The longest sleep between rounds when idle.", min = "1ms")
    @WithDefault("1s")
    Duration pollMax();

    /** See {@link Doc}. */
    @Doc(
        value =
            "A DISPATCHED row not SENT after this long is handed over again: longer than the"
                + " default publish retry budget (about 6 minutes), so it catches lost workflows,"
                + " not slow ones.",
        min = "1s")
    @WithDefault("10m")
    Duration redispatch();

    /** See {@link Doc}. */
    @Doc(
        value =
            "Payments' events handed to Temporal at once: each hand-off is one signalWithStart"
                + " round trip, so one at a time caps delivery at the inverse of its latency.",
        min = "1")
    @WithDefault("16")
    int handoffs();

    /** See {@link Doc}. */
    @Doc(
        value =
            "Events handed to Temporal whose signal no workflow task has handled yet, at most"
                + " (HandoffWindow): a backlog then waits in the outbox, not in the task queue,"
                + " where a workflow task that waits past the sticky queue's 5 s timeout is"
                + " replayed from its whole history.",
        min = "1",
        byDefault = "2 × the worker's payment workflow task slots (22 with the default pool)")
    Optional<Integer> window();
  }

  /** {@code payrelay.outbox}: the outbox's retention purge. */
  interface Outbox {

    /** See {@link Doc}. */
    @Doc(
        value =
            "SENT rows whose broker confirm is older than this are purged; PENDING, DISPATCHED"
                + " and DEAD rows never are.",
        min = "1d")
    @WithDefault("7d")
    Duration retention();

    /** See {@link Doc}. */
    @Doc(value = "Rows deleted per statement.", min = "1")
    @WithDefault("500")
    int purgeBatch();
  }

  /** {@code payrelay.inbox}: the webhook inbox's retention (WebhookInboxRetention). */
  interface Inbox {

    /** See {@link Doc}. */
    @Doc(
        value =
            "How much of the body a callback refused without a verified signature keeps, with"
                + " its headers and the SHA-256 and length of the whole body (the API's setting).",
        min = "0B",
        max = WebhookInboxStore.MAX_REJECTED_BODY_BYTES + "B")
    @WithDefault(WebhookInboxStore.DEFAULT_REJECTED_BODY_BYTES + "B")
    ByteSize rejectedBodySize();

    /** See {@link Doc}. */
    @Doc(
        value = "Rejected rows are purged this long after they arrived.",
        min = "1d",
        max = "3650d")
    @WithDefault("7d")
    Duration rejectedRetention();

    /** See {@link Doc}. */
    @Doc(
        value =
            "Every other row, whole body included, is purged this long after it arrived (a year"
                + " and a month, past a yearly audit), except rows still RECEIVED, which payrelay"
                + " check reports and which are never purged.",
        min = "1d",
        max = "36500d")
    @WithDefault("400d")
    Duration retention();

    /** See {@link Doc}. */
    @Doc(value = "Rows per DELETE.", min = "1", max = "10000")
    @WithDefault("500")
    int purgeBatch();
  }

  /** {@code payrelay.query}: a payment's workflow asking the channel. */
  interface Query {

    /** See {@link Doc}. */
    @Doc(value = "How long the workflow waits for the callback before its first query.", min = "0s")
    @WithDefault("30s")
    Duration grace();

    /** See {@link Doc}. */
    @Doc(
        value = "The delay after the first query; it doubles up to PAYRELAY_QUERY_MAX.",
        min = "1ms")
    @WithDefault("30s")
    Duration initial();

    /** See {@link Doc}. */
    @Doc(value = "The longest delay between queries, at least PAYRELAY_QUERY_INITIAL.", min = "1ms")
    @WithDefault("10m")
    Duration max();
  }

  /** {@code payrelay.expiry}: the expiry sweep, a safety net for lost workflows. */
  interface Expiry {

    /** See {@link Doc}. */
    @Doc(
        value =
            "How often the worker hands PENDING payments past their deadline to their workflow"
                + " again; 0s turns it off.",
        min = "0s")
    @WithDefault("5m")
    Duration sweep();

    /** See {@link Doc}. */
    @Doc(
        value = "How long past its deadline a payment is left to its own workflow first.",
        min = "0s")
    @WithDefault("5m")
    Duration sweepGrace();
  }

  /** {@code payrelay.grant}: the grant repair, a safety net for lost entitlements. */
  interface Grant {

    /** See {@link Doc}. */
    @Doc(
        value =
            "How often one worker looks for PAID payments missing an entitlement and hands their"
                + " PaymentConfirmed to their workflow again; 0s turns it off.",
        min = "0s")
    @WithDefault("15s")
    Duration repair();

    /** See {@link Doc}. */
    @Doc(
        value = "How long after being paid a payment is left to its own workflow's grant first.",
        min = "0s")
    @WithDefault("30s")
    Duration repairAfter();
  }

  /** {@code payrelay.consumer}: the worker's consumers, notifications and entitlements. */
  interface Consumer {

    /** See {@link Doc}. */
    @Doc("Whether the worker runs the notifications consumer (bound to payment.confirmed).")
    @WithDefault("true")
    boolean notifications();

    /** See {@link Doc}. */
    @Doc(
        "Whether the worker runs the entitlements consumer (bound to payment.refunded), which"
            + " revokes a refunded purchase's grants; off, refunds leave grants live until a"
            + " worker runs it and it drains its queue.")
    @WithDefault("true")
    boolean entitlements();

    /** See {@link Doc}. */
    @Doc(
        "The backoff before each retry; a message is handled at most once more than there are"
            + " delays, then quarantined.")
    @WithDefault("1s,5s,30s,2m,10m")
    DurationList retryDelays();

    /** See {@link Doc}. */
    @Doc(value = "The work queue's x-delivery-limit.", min = "1")
    @WithDefault("" + ConsumerSettings.DEFAULT_DELIVERY_LIMIT)
    int deliveryLimit();

    /** See {@link Doc}. */
    @Doc(
        value =
            "Consumer inbox rows older than this are purged; at least PAYRELAY_OUTBOX_RETENTION,"
                + " so an event still replayable from the outbox is recognised as a duplicate.",
        min = "1d")
    @WithDefault("30d")
    Duration inboxRetention();

    /** See {@link Doc}. */
    @Doc(
        "The first part of the consumers' queue names (<prefix>.consumer.notifications, its"
            + " .retry.<n> delay queues and .quarantine); set it when installations share a"
            + " vhost.")
    @WithDefault(ConsumerQueues.DEFAULT_PREFIX)
    String queuePrefix();
  }

  /** {@code payrelay.refund}: what refunds do beyond the money. */
  interface Refund {

    /** See {@link Doc}. */
    @Doc(
        "What a partial refund does to the purchase's grants: keep (the buyer keeps every"
            + " course) or revoke-all (as a full refund, which always revokes them all). Applied"
            + " by the entitlements consumer when it handles the refund's PaymentRefunded.")
    @WithDefault("keep")
    PartialRefundGrants partialGrants();

    /** When a refund's workflow asks the channel about a refund whose result is not known yet. */
    RefundQuery query();

    /** See {@link Doc}. */
    @Doc(
        value =
            "How long a refund may stay unknown or pending at its channel before its workflow shows"
                + " NEEDS_ATTENTION (RefundState) and waits for an operator's acceptAsRefunded or"
                + " markFailed, while it keeps asking at PAYRELAY_REFUND_QUERY_MAX.",
        min = "1m")
    @WithDefault("3d")
    Duration attentionAfter();
  }

  /** {@code payrelay.refund.query}: a refund's workflow asking the channel by our refund number. */
  interface RefundQuery {

    /** See {@link Doc}. */
    @Doc(
        value =
            "The delay before the first query of a refund whose result is unknown or pending; it"
                + " doubles up to PAYRELAY_REFUND_QUERY_MAX.",
        min = "1s")
    @WithDefault("10s")
    Duration initial();

    /** See {@link Doc}. */
    @Doc(
        value = "The longest delay between refund queries, at least PAYRELAY_REFUND_QUERY_INITIAL.",
        min = "1s")
    @WithDefault("10m")
    Duration max();
  }
}
