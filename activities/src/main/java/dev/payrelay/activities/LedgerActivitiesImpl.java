package dev.payrelay.activities;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.CallbackOutcome;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelQueryResult;
import dev.payrelay.domain.crash.CrashPoint;
import dev.payrelay.domain.crash.CrashPoints;
import dev.payrelay.domain.operator.SignalTokens;
import dev.payrelay.ledger.operator.OperatorAction;
import dev.payrelay.ledger.operator.PaymentResolutions;
import dev.payrelay.ledger.operator.ResolutionOutcome;
import dev.payrelay.ledger.payment.LedgerResult;
import dev.payrelay.ledger.payment.PaymentDeadlines;
import dev.payrelay.ledger.payment.PaymentLedger;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStanding;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.workflows.activities.ConfirmFromChannelRequest;
import dev.payrelay.workflows.activities.ExpireRequest;
import dev.payrelay.workflows.activities.LedgerActivities;
import dev.payrelay.workflows.activities.LedgerView;
import dev.payrelay.workflows.activities.OperatorRequest;
import dev.payrelay.workflows.activities.OperatorRequestResult;
import dev.payrelay.workflows.activities.ReadPaymentRequest;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ledger transactions a payment's workflow runs: the same confirm a callback uses (source
 * QUERY), expiry, and audited operator requests on the deadline.
 */
public final class LedgerActivitiesImpl implements LedgerActivities {

  private static final Logger log = LoggerFactory.getLogger(LedgerActivitiesImpl.class);

  private final PaymentStore payments;
  private final PaymentLedger ledger;
  private final PaymentDeadlines deadlines;
  private final SignalIdentity identity;
  private final CrashPoints crashPoints;

  /**
   * Activities over the ledger's stores; an operator request is audited under the operator {@code
   * identity} vouches for.
   */
  public LedgerActivitiesImpl(
      PaymentStore payments,
      PaymentLedger ledger,
      PaymentDeadlines deadlines,
      SignalIdentity identity) {
    this(payments, ledger, deadlines, identity, CrashPoints.none());
  }

  /**
   * As above, passing {@link CrashPoint#QUERY_CONFIRM_AFTER_COMMIT} once a channel's answer was
   * applied to the ledger, and {@link CrashPoint#OPERATOR_AFTER_COMMIT} once an operator request
   * committed.
   */
  public LedgerActivitiesImpl(
      PaymentStore payments,
      PaymentLedger ledger,
      PaymentDeadlines deadlines,
      SignalIdentity identity,
      CrashPoints crashPoints) {
    this.identity = identity;
    this.payments = payments;
    this.ledger = ledger;
    this.deadlines = deadlines;
    this.crashPoints = crashPoints;
  }

  @Override
  public LedgerView read(ReadPaymentRequest request) {
    PaymentStanding s =
        payments
            .standing(request.paymentId())
            .orElseThrow(() -> ActivityFailures.paymentNotFound(request.paymentId()));
    return new LedgerView(
        s.status().name(), s.expiresAt().toString(), s.openExceptions(), s.deadEventIds());
  }

  @Override
  public String confirmFromChannel(ConfirmFromChannelRequest r) {
    PaymentRow payment =
        payments
            .find(r.paymentId())
            .orElseThrow(() -> ActivityFailures.paymentNotFound(r.paymentId()));
    ChannelQueryResult paid =
        new ChannelQueryResult(
            r.paymentId(),
            ChannelPaymentStatus.PAID,
            r.channelTxnId(),
            Money.ofMinor(r.amountMinor(), r.currency()));
    LedgerResult result = ledger.applyAnswer(payment, paid, r.source());
    crashPoints.reach(CrashPoint.QUERY_CONFIRM_AFTER_COMMIT);
    log.info(
        "payment {}: channel answered PAID via {}; outcome {}",
        r.paymentId(),
        r.source(),
        result.outcome());
    // DUPLICATE means PAID by this same transaction and amount already: the same ledger state a
    // CONFIRMED left, so a retry after this activity's commit returns what the first attempt did.
    return (result.outcome() == CallbackOutcome.DUPLICATE
            ? CallbackOutcome.CONFIRMED
            : result.outcome())
        .name();
  }

  @Override
  public String expire(ExpireRequest r) {
    String status = deadlines.expire(r.paymentId()).name();
    log.info(
        "payment {}: deadline passed and closed at the channel; now {}", r.paymentId(), status);
    return status;
  }

  @Override
  public OperatorRequestResult operatorRequest(OperatorRequest r) {
    Instant until =
        "EXTEND_DEADLINE".equals(r.action()) && r.rejection() == null
            ? Instant.parse(r.until())
            : null;
    ResolutionOutcome o =
        deadlines.operatorRequest(
            new OperatorAction(
                r.actionKey(),
                // Requery and a new deadline move no money: never refused, named as verified.
                identity.audited(
                    r.paymentId(),
                    r.action(),
                    until == null
                        ? r.paymentId()
                        : SignalTokens.deadlineTarget(r.paymentId(), until),
                    r.operator(),
                    r.token()),
                r.action(),
                PaymentResolutions.TARGET,
                r.paymentId(),
                r.reason()),
            until,
            r.rejection());
    crashPoints.reach(CrashPoint.OPERATOR_AFTER_COMMIT);
    return new OperatorRequestResult(o.applied(), o.actionId(), o.message());
  }
}
