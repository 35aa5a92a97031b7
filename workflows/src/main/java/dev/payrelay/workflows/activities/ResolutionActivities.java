package dev.payrelay.workflows.activities;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/** Applies or refuses operator resolutions, audited. Type names are prefixed {@code Resolution}. */
@ActivityInterface(namePrefix = "Resolution")
public interface ResolutionActivities {

  /**
   * Applies a valid decision in one transaction with its audit row, or refuses it (audited as
   * REJECTED) when it cannot apply, e.g. ACCEPT_AS_PAID on a PAID payment. Idempotent by the
   * request's action key: a retry (e.g. after the commit, when the completion was lost) returns the
   * stored result, never a refusal of its own effect. The audit records the operator of the
   * request's valid signal token, else {@code unverified: <operator>}; in production mode a request
   * without a valid token is refused (audited as REFUSED, nothing changed).
   */
  @ActivityMethod
  ResolutionResult resolve(ResolveRequest request);

  /**
   * Audits a refused request as REJECTED, once per action key: an invalid one (missing operator or
   * reason, unknown action), or a CLOSE the channel would not close (it says PAID) or could not be
   * asked to close.
   */
  @ActivityMethod
  ResolutionResult reject(RejectResolutionRequest request);

  /**
   * Whether {@link #resolve} may apply {@code request} before anything is asked of the channel: its
   * operator's identity is accepted (a valid signal token, or not production mode), and for a
   * {@code CLOSE} the ledger would not refuse it whatever the channel answers (the payment is PAID,
   * or money the channel reported waits for a decision) and the payment is still PENDING (a CLOSED
   * or EXPIRED payment is not closed at the channel again; {@link #resolve} answers that it already
   * is). Writes nothing; a {@code CLOSE} asks it before closing the payment at the channel, so a
   * close that {@link #resolve} then refuses leaves the channel untouched too.
   */
  @ActivityMethod
  boolean mayApply(ResolveRequest request);
}
