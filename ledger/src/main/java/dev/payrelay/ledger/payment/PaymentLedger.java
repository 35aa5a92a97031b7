package dev.payrelay.ledger.payment;

import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static dev.payrelay.ledger.db.generated.Tables.WEBHOOK_INBOX;

import dev.payrelay.domain.PaymentTransition;
import dev.payrelay.domain.channel.CallbackDecision;
import dev.payrelay.domain.channel.CallbackOutcome;
import dev.payrelay.domain.channel.ChannelQueryResult;
import dev.payrelay.domain.channel.VerifiedCallback;
import dev.payrelay.domain.crash.CrashPoint;
import dev.payrelay.domain.crash.CrashPoints;
import dev.payrelay.ledger.db.RenderedQuery;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.db.Transactions;
import dev.payrelay.ledger.db.UniqueKeys;
import dev.payrelay.ledger.inbox.InboxCompletion;
import dev.payrelay.ledger.inbox.InboxCompletions;
import dev.payrelay.ledger.inbox.WebhookInboxStore;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.refund.RefundReports;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;

/**
 * The ledger's confirm: applies a verified channel callback to our payment.
 *
 * <p>DESIGN invariant 3: one local transaction runs {@code UPDATE payment_order SET status='PAID'
 * ... WHERE status='PENDING' AND amount_minor=? AND currency=?} (the {@link
 * PaymentTransition#CONFIRM} move) and, only when exactly one row changed, inserts the {@code
 * PaymentConfirmed} outbox event. A callback that disagrees with our row is recorded as a {@code
 * payment_exception} and never changes the payment. A callback that reports refunds of our payment
 * ({@link CallbackDecision#decidesRefunds}) is applied refund by refund by {@link RefundReports},
 * each once by the channel's refund id.
 */
public final class PaymentLedger {

  /**
   * What the confirm's move (DESIGN invariant 3) requires of the payment besides PENDING: amount,
   * currency, merchant and channel as the channel reported them.
   */
  private static final Condition CONFIRM_GUARD =
      PAYMENT_ORDER
          .AMOUNT_MINOR
          .eq(DSL.param("amountMinor", Long.class))
          .and(PAYMENT_ORDER.CURRENCY.eq(DSL.param("currency", String.class)))
          .and(PAYMENT_ORDER.MERCHANT_ID.eq(DSL.param("merchantId", String.class)))
          .and(PAYMENT_ORDER.CHANNEL.eq(DSL.param("channel", String.class)));

  /**
   * What the confirm's move sets besides the status: the channel's transaction, the time, and the
   * next event number for its {@code PaymentConfirmed} ({@link
   * PaymentTransitions#TAKE_NEXT_EVENT_SEQ}), so the event needs no statement of its own for it.
   */
  private static final Map<Field<?>, Field<?>> CONFIRM_SETS = confirmSets();

  private static final String[] CONFIRM_NAMES = {
    "paymentId", "amountMinor", "currency", "merchantId", "channel", "channelTxnId"
  };

  /**
   * The confirm's move: PENDING to PAID only where {@link #CONFIRM_GUARD} holds. Every confirming
   * answer runs it, so it is rendered once.
   */
  private static final RenderedQuery CONFIRM =
      RenderedQuery.of(
          PaymentTransitions.moveQuery(
              DSL.param("paymentId", String.class),
              PaymentTransition.CONFIRM,
              CONFIRM_GUARD,
              CONFIRM_SETS),
          CONFIRM_NAMES);

  /**
   * {@link #CONFIRM} for a callback: the same move, and in the same statement the callback's inbox
   * row completed as CONFIRMED ({@link InboxCompletions#sets}), so a confirming callback's
   * transaction is this, its outbox insert and the commit.
   */
  private static final RenderedQuery CONFIRM_CALLBACK =
      RenderedQuery.of(
          PaymentTransitions.moveWithQuery(
              DSL.param("paymentId", String.class),
              PaymentTransition.CONFIRM,
              CONFIRM_GUARD,
              CONFIRM_SETS,
              WEBHOOK_INBOX,
              WEBHOOK_INBOX.ID.eq(DSL.param("inboxId", Long.class)),
              InboxCompletions.sets("inbox_")),
          concat(CONFIRM_NAMES, InboxCompletions.names("inbox_", "inboxId")));

  private static final String CHANNEL_TXN_KEY = "uk_payment_channel_txn";
  private static final int MAX_DECISIONS = 3;

  /** The {@code source} of a confirmation that came in a channel's callback. */
  public static final String CALLBACK = "CALLBACK";

  /** The {@code source} of a channel's answer to our query. */
  public static final String QUERY = "QUERY";

  private final DSLContext dsl;
  private final PaymentStore payments;
  private final PaymentTransitions transitions;
  private final PaymentExceptions exceptions;
  private final RefundReports refundReports;
  private final CrashPoints crashPoints;

  /** A ledger over {@code dsl}. */
  public PaymentLedger(DSLContext dsl, PaymentStore payments, OutboxWriter outbox) {
    this(dsl, payments, outbox, CrashPoints.none());
  }

  /**
   * A ledger over {@code dsl} that passes {@link CrashPoint#WEBHOOK_BEFORE_COMMIT} inside a
   * callback's confirm transaction, after its writes and before its commit.
   */
  public PaymentLedger(
      DSLContext dsl, PaymentStore payments, OutboxWriter outbox, CrashPoints crashPoints) {
    this.dsl = dsl;
    this.payments = payments;
    this.transitions = new PaymentTransitions(outbox);
    this.exceptions = new PaymentExceptions(dsl, outbox);
    this.refundReports = new RefundReports(dsl, outbox);
    this.crashPoints = crashPoints;
  }

  /**
   * A payment as it stands, read to choose the merchant account whose secret verifies a callback
   * naming it (so one merchant account's secret cannot confirm another account's payment) and then
   * handed to {@link #applyCallback} as its first read.
   *
   * @return empty when there is no payment with this id
   */
  public Optional<PaymentRow> payment(String paymentId) {
    return payments.find(paymentId);
  }

  /**
   * Decides and applies one verified answer of the payment's own channel (a query, a statement, a
   * repair): as {@link #apply(String, VerifiedCallback, Long, String)} at the channel the payment
   * was created at.
   */
  public LedgerResult apply(VerifiedCallback callback, Long inboxId, String source) {
    return apply(null, callback, inboxId, source);
  }

  /**
   * Decides and applies the answer of the payment's own channel account to our own query of it (a
   * status query, or the close at its deadline, answered like one), as {@link
   * #applyAnswer(PaymentRow, String, ChannelQueryResult, String)} under the answer id {@code
   * query:<paymentId>}: the same for every answer about the payment, so the channel repeating a
   * refund or dispute records one exception.
   */
  public LedgerResult applyAnswer(PaymentRow payment, ChannelQueryResult answer, String source) {
    return applyAnswer(payment, "query:" + payment.paymentId(), answer, source);
  }

  /**
   * Decides and applies the answer of the payment's own channel account to a call of ours, judged
   * exactly as a callback with the same content would be: the merchant is the payment's own by
   * construction (our call to our own account); transaction, amount and status are the channel's.
   * As {@link #apply(VerifiedCallback, Long, String)} with no inbox row.
   *
   * @param payment the payment asked about (its id and merchant are used; its state is read again)
   * @param answerId the id the answer stands under where a callback's notification id would (a
   *     refund or dispute is one exception per answer id), e.g. {@code recon:<itemId>}
   * @param answer the channel's answer: status, transaction and amount in minor units
   * @param source how the answer reached us, written into a confirm's event: {@link #QUERY}
   */
  public LedgerResult applyAnswer(
      PaymentRow payment, String answerId, ChannelQueryResult answer, String source) {
    VerifiedCallback asCallback =
        new VerifiedCallback(
            answerId,
            payment.merchantId(),
            payment.paymentId(),
            answer.channelTxnId(),
            answer.amount(),
            answer.status());
    return apply(asCallback, null, source);
  }

  /**
   * Decides and applies one verified callback. Safe under any concurrency: the conditional update
   * lets exactly one of many identical callbacks confirm; the others re-read and find DUPLICATE.
   *
   * @param channel the channel whose signature the callback carried; a payment created at another
   *     channel is {@link CallbackOutcome#OTHER_CHANNEL} and stays untouched. Null: the payment's
   *     own channel (our own query or reconciliation of it)
   * @param callback the verified callback
   * @param inboxId the {@code webhook_inbox} row it arrived in, or null (e.g. from a query)
   * @param source how the confirmation reached us, written into the event: CALLBACK or QUERY
   * @return the outcome, exactly one per call
   */
  public LedgerResult apply(
      String channel, VerifiedCallback callback, Long inboxId, String source) {
    return apply(new Speaker(channel, null), callback, inboxId, source, null, null);
  }

  /**
   * Applies a channel's callback stored in {@code webhook_inbox} row {@code inboxId}, as {@link
   * #apply(String, VerifiedCallback, Long, String)} with source {@link #CALLBACK}; a CONFIRMED
   * outcome also completes that inbox row (signature valid, outcome CONFIRMED, {@code
   * confirmedReplyStatus}) inside the ledger's transaction, so a confirming callback commits twice
   * (its inbox row, then the ledger) instead of three times. Any other outcome leaves the row for
   * the caller to complete ({@link WebhookInboxStore#complete}).
   *
   * @param account the merchant id of the account whose secret or key verified the callback: a
   *     payment of another account of this channel is {@link CallbackOutcome#OTHER_ACCOUNT} and
   *     stays untouched, with nothing recorded against it
   * @param confirmedReplyStatus the HTTP status the channel is answered with when its callback
   *     confirmed the payment
   * @param read the callback's payment as {@link #payment} returned it a moment ago, decided on
   *     first; null (or another payment's row): read it now. A read that is stale by then is
   *     harmless: the confirm's conditional update finds the row changed, and the next decision
   *     reads it again
   * @throws IllegalStateException "no webhook_inbox row" when the callback would confirm but row
   *     {@code inboxId} does not exist; nothing is changed
   */
  public LedgerResult applyCallback(
      String channel,
      String account,
      VerifiedCallback callback,
      long inboxId,
      int confirmedReplyStatus,
      PaymentRow read) {
    Objects.requireNonNull(account, "account");
    return apply(
        new Speaker(channel, account),
        callback,
        inboxId,
        CALLBACK,
        read != null && read.paymentId().equals(callback.paymentId()) ? read : null,
        new InboxCompletion(
            true,
            CallbackOutcome.CONFIRMED.name(),
            confirmedDetail(CALLBACK),
            confirmedReplyStatus,
            callback.paymentId(),
            callback.notificationId()));
  }

  /**
   * Who speaks for a payment: the channel whose signature a callback carried, and the merchant
   * account that verified it. A null component means "the payment's own" (our own query or
   * reconciliation of it, made with the payment's own account).
   */
  private record Speaker(String channel, String account) {}

  /**
   * As the public {@code apply}; a non-null {@code firstRead} is the first decision's row, a
   * non-null {@code confirmedInbox} completes the inbox row.
   */
  private LedgerResult apply(
      Speaker speaker,
      VerifiedCallback callback,
      Long inboxId,
      String source,
      PaymentRow firstRead,
      InboxCompletion confirmedInbox) {
    for (int attempt = 1; ; attempt++) {
      Optional<PaymentRow> ours =
          attempt == 1 && firstRead != null
              ? Optional.of(firstRead)
              : payments.find(callback.paymentId());
      Optional<LedgerResult> notItsOwn = ours.flatMap(row -> notSpokenFor(speaker, row));
      if (notItsOwn.isPresent()) {
        return notItsOwn.get();
      }
      if (ours.isPresent() && CallbackDecision.decidesRefunds(ours.get().snapshot(), callback)) {
        return refundReports.apply(ours.get().paymentId(), callback, inboxId);
      }
      CallbackOutcome outcome =
          CallbackDecision.decide(ours.map(PaymentRow::snapshot).orElse(null), callback);
      if (outcome != CallbackOutcome.CONFIRMED) {
        return record(outcome, ours.orElse(null), callback, inboxId);
      }
      Optional<LedgerResult> confirmed =
          tryConfirm(ours.get(), callback, source, inboxId, confirmedInbox);
      if (confirmed.isPresent()) {
        return confirmed.get();
      }
      if (attempt == MAX_DECISIONS) {
        throw new IllegalStateException(
            "payment " + callback.paymentId() + " kept changing under callback; giving up");
      }
    }
  }

  /**
   * OTHER_CHANNEL when {@code row} was created at another channel than the speaker's, OTHER_ACCOUNT
   * when with another merchant account; empty when the speaker may speak for it. Neither changes
   * anything nor records anything against the payment.
   */
  private static Optional<LedgerResult> notSpokenFor(Speaker speaker, PaymentRow row) {
    if (speaker.channel() != null && !row.channel().equals(speaker.channel())) {
      return Optional.of(
          untouched(
              CallbackOutcome.OTHER_CHANNEL,
              row,
              "was created at " + row.channel() + ", not " + speaker.channel()));
    }
    if (speaker.account() != null && !row.merchantId().equals(speaker.account())) {
      return Optional.of(
          untouched(
              CallbackOutcome.OTHER_ACCOUNT,
              row,
              "belongs to another merchant account than "
                  + speaker.account()
                  + ", whose secret verified the callback"));
    }
    return Optional.empty();
  }

  private static LedgerResult untouched(CallbackOutcome outcome, PaymentRow row, String why) {
    return new LedgerResult(
        outcome,
        row.paymentId(),
        null,
        null,
        outcome + ": payment " + row.paymentId() + " " + why + "; nothing changed");
  }

  /** Runs the confirm transaction; empty when another writer changed the row first. */
  private Optional<LedgerResult> tryConfirm(
      PaymentRow row,
      VerifiedCallback cb,
      String source,
      Long inboxId,
      InboxCompletion confirmedInbox) {
    try {
      return Transactions.run(
          dsl, cfg -> confirm(cfg.dsl(), row, cb, source, inboxId, confirmedInbox));
    } catch (DataAccessException e) {
      if (!UniqueKeys.isViolationOf(e, CHANNEL_TXN_KEY)) {
        throw e;
      }
      return Optional.of(record(CallbackOutcome.TXN_CONFLICT, row, cb, inboxId));
    }
  }

  private Optional<LedgerResult> confirm(
      DSLContext tx,
      PaymentRow row,
      VerifiedCallback cb,
      String source,
      Long inboxId,
      InboxCompletion confirmedInbox) {
    boolean moved =
        confirmedInbox == null
            ? PaymentTransitions.moved(row.paymentId(), CONFIRM.execute(tx, confirmValues(row, cb)))
            : PaymentTransitions.moved(
                row.paymentId(),
                CONFIRM_CALLBACK.execute(tx, confirmValues(row, cb, confirmedInbox, inboxId)),
                2);
    if (!moved) {
      if (confirmedInbox != null) {
        // The joined statement also misses when the inbox row is gone: that is no change of the
        // payment to decide again on, and deciding again would end in "kept changing".
        InboxCompletions.requireRow(tx, inboxId);
      }
      return Optional.empty();
    }
    String eventId =
        transitions.announceConfirmedNumbered(tx, row, cb.channelTxnId(), cb.amount(), source);
    if (CALLBACK.equals(source)) {
      crashPoints.reach(CrashPoint.WEBHOOK_BEFORE_COMMIT);
    }
    return Optional.of(
        new LedgerResult(
            CallbackOutcome.CONFIRMED, row.paymentId(), eventId, null, confirmedDetail(source)));
  }

  private static Map<Field<?>, Field<?>> confirmSets() {
    Map<Field<?>, Field<?>> sets = new LinkedHashMap<>(PaymentTransitions.TAKE_NEXT_EVENT_SEQ);
    sets.put(PAYMENT_ORDER.CHANNEL_TXN_ID, DSL.param("channelTxnId", String.class));
    sets.put(PAYMENT_ORDER.PAID_AT, SqlTime.now());
    // The guard matched the channel's amount and currency to ours: that is what it captured.
    sets.put(PAYMENT_ORDER.CAPTURED_AMOUNT_MINOR, PAYMENT_ORDER.AMOUNT_MINOR);
    sets.put(PAYMENT_ORDER.CAPTURED_CURRENCY, PAYMENT_ORDER.CURRENCY);
    return sets;
  }

  /** {@link #CONFIRM}'s values, in {@link #CONFIRM_NAMES} order. */
  private static Object[] confirmValues(PaymentRow row, VerifiedCallback cb) {
    return new Object[] {
      row.paymentId(),
      cb.amount().minorUnits(),
      cb.amount().currencyCode(),
      cb.merchantId(),
      row.channel(),
      cb.channelTxnId()
    };
  }

  /** {@link #CONFIRM_CALLBACK}'s values: {@link #CONFIRM}'s, then the inbox row's completion. */
  private static Object[] confirmValues(
      PaymentRow row, VerifiedCallback cb, InboxCompletion inbox, Long inboxId) {
    List<Object> values = new ArrayList<>(Arrays.asList(confirmValues(row, cb)));
    values.addAll(InboxCompletions.values(inbox));
    values.add(Objects.requireNonNull(inboxId, "inboxId"));
    return values.toArray();
  }

  private static String[] concat(String[] first, String[] second) {
    String[] both = Arrays.copyOf(first, first.length + second.length);
    System.arraycopy(second, 0, both, first.length, second.length);
    return both;
  }

  private static String confirmedDetail(String source) {
    return "marked PAID by " + source;
  }

  private LedgerResult record(
      CallbackOutcome outcome, PaymentRow ours, VerifiedCallback cb, Long inboxId) {
    String detail = describe(outcome, ours, cb);
    if (!outcome.isException()) {
      return new LedgerResult(outcome, cb.paymentId(), null, null, detail);
    }
    PaymentExceptions.Recorded recorded =
        exceptions.record(ours.paymentId(), outcome.name(), cb, detail, inboxId);
    return new LedgerResult(outcome, ours.paymentId(), recorded.eventId(), recorded.id(), detail);
  }

  private static String describe(CallbackOutcome outcome, PaymentRow ours, VerifiedCallback cb) {
    String theirs =
        "channel says "
            + cb.status()
            + " "
            + cb.amount()
            + txn(cb.channelTxnId())
            + " merchant "
            + cb.merchantId();
    if (outcome == CallbackOutcome.TXN_CONFLICT) {
      return outcome
          + ": channel transaction "
          + cb.channelTxnId()
          + " already paid another payment; "
          + theirs;
    }
    if (ours == null) {
      return outcome + ": no payment " + cb.paymentId() + "; " + theirs;
    }
    return outcome
        + ": ours "
        + ours.status()
        + " "
        + ours.amount()
        + txn(ours.channelTxnId())
        + " merchant "
        + ours.merchantId()
        + "; "
        + theirs;
  }

  /** {@code " txn <id>"}, or nothing for a payment no channel transaction paid yet. */
  private static String txn(String channelTxnId) {
    return channelTxnId == null ? "" : " txn " + channelTxnId;
  }
}
