package dev.payrelay.workflows;

/**
 * The refund workflow's operator signals {@code requery}, {@code acceptAsRefunded} and {@code
 * markFailed}. JSON shape:
 *
 * <pre>
 * {@code {"operator":"alice","reason":"Stripe dashboard shows it refunded","evidence":"re_3Nx"}}
 * </pre>
 *
 * @param operator who asks; required
 * @param reason why; required
 * @param evidence for {@code acceptAsRefunded}: the channel's refund id read at the channel;
 *     required there, ignored by the others
 * @param token a signal token for this workflow ({@code refund-{refundId}}), action and refund, or
 *     null: without a valid one the audit records the operator as unverified, and production mode
 *     refuses {@code acceptAsRefunded} and {@code markFailed}
 */
public record RefundSignal(String operator, String reason, String evidence, String token) {

  /** A signal without evidence or token. */
  public RefundSignal(String operator, String reason) {
    this(operator, reason, null, null);
  }

  /**
   * Why this signal cannot be applied, or null when valid: the workflow's rule, also applied by the
   * admin API before it sends one.
   *
   * @param needsEvidence true for {@code acceptAsRefunded}
   */
  public String invalidBecause(boolean needsEvidence) {
    String missing = OperatorFields.missing(operator, reason);
    if (missing != null || !needsEvidence) {
      return missing;
    }
    return evidence == null || evidence.isBlank()
        ? "evidence (the channel's refund id) is required"
        : null;
  }
}
