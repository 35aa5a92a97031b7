package dev.payrelay.api.admin;

import dev.payrelay.workflows.RefundSignal;
import dev.payrelay.workflows.RefundWorkflow;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * An operator's fix of a refund whose channel outcome is unknown: the refund workflow's signal, the
 * admin route that sends it, and the action its {@code operator_action} row records (the names the
 * workflow's {@code RefundDesk} and the activity's {@code RefundOperatorDesk} use).
 */
public enum RefundFix {
  /** Ask the channel about the refund now; moves no money. */
  REQUERY("requery", "requery", RefundWorkflow::requery),
  /** The channel shows the refund done: SUCCEEDED with the channel's refund id as evidence. */
  ACCEPT_AS_REFUNDED("accept-as-refunded", "acceptAsRefunded", RefundWorkflow::acceptAsRefunded),
  /** The channel shows no such refund or failed it: FAILED, its amount refundable again. */
  MARK_FAILED("mark-failed", "markFailed", RefundWorkflow::markFailed);

  private final String route;
  private final String signal;
  private final BiConsumer<RefundWorkflow, RefundSignal> method;

  RefundFix(String route, String signal, BiConsumer<RefundWorkflow, RefundSignal> method) {
    this.route = route;
    this.signal = signal;
    this.method = method;
  }

  /** The last path segment of {@code POST /v1/admin/refunds/{refundId}/<route>}. */
  public String route() {
    return route;
  }

  /** The refund workflow's signal name, as the Temporal UI lists it. */
  public String signal() {
    return signal;
  }

  /** The workflow stub's signal method. */
  public BiConsumer<RefundWorkflow, RefundSignal> method() {
    return method;
  }

  /** Whether the signal needs evidence, the channel's refund id. */
  public boolean needsEvidence() {
    return this == ACCEPT_AS_REFUNDED;
  }

  /** The fix whose action name is {@code action} (case-insensitive, blanks stripped). */
  public static Optional<RefundFix> parse(String action) {
    String wanted = action == null ? "" : action.strip().toUpperCase(Locale.ROOT);
    return Arrays.stream(values()).filter(f -> f.name().equals(wanted)).findFirst();
  }
}
