package dev.payrelay.workflows;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Why a payment needs an operator: one entry per open cause (an open exception, a DEAD event, a
 * failed grant or close, channel queries failing in a row). The payment shows NEEDS_ATTENTION while
 * any is open; each is closed by the operator action that fixes it. Insertion-ordered, so
 * deterministic.
 */
final class Attention {

  /** The cause for open exceptions, closed by an applied {@code resolve}. */
  static final String EXCEPTION = "exception";

  /**
   * The cause for a close at the deadline that kept failing, closed by a {@code requery}, a new
   * deadline or the payment settling.
   */
  static final String CLOSE = "close";

  /** The cause for a failed grant, closed by an applied {@code resolve}. */
  static final String GRANT = "grant";

  /**
   * The cause for channel queries failing in a row ({@link QueryAttention}), closed by the next
   * answer or the payment settling.
   */
  static final String CHANNEL_QUERY = "channel-query";

  private final Map<String, String> causes = new LinkedHashMap<>();

  /** The cause key of a DEAD event, closed by its replay or discard. */
  static String dead(String eventId) {
    return "dead:" + eventId;
  }

  void raise(String cause, String message) {
    causes.put(cause, message);
  }

  void clear(String cause) {
    causes.remove(cause);
  }

  boolean isEmpty() {
    return causes.isEmpty();
  }

  /** Each open cause's message with the fix an operator sends for it, oldest first. */
  java.util.List<String> withFixes() {
    return causes.entrySet().stream()
        .map(e -> e.getValue() + " — fix: " + fixFor(e.getKey()))
        .toList();
  }

  /**
   * The signal that closes {@code cause}, as the runbook (docs/operations.md) names it ({@code
   * payrelay} CLI, the admin API or the Temporal UI's signal form).
   */
  static String fixFor(String cause) {
    if (cause.startsWith("dead:")) {
      String eventId = cause.substring("dead:".length());
      return "after fixing why it failed, replayEvent {\"eventId\":\""
          + eventId
          + "\"} to publish it again, or discardEvent to drop it";
    }
    return switch (cause) {
      case EXCEPTION ->
          "resolve with MARK_FOR_REFUND (give the money back) or ACCEPT_AS_PAID (grant as paid);"
              + " ACKNOWLEDGE for a REFUNDED or DISPUTED report";
      case CLOSE -> "requery once the channel answers, extendDeadline, or resolve CLOSE";
      case CHANNEL_QUERY ->
          "none while the channel recovers (the next answer clears this); if it does not, check"
              + " the channel's status and our credentials for it (docs/operations.md), then"
              + " requery, extendDeadline, or resolve CLOSE";
      case GRANT ->
          "a transient failure is retried by the run; for a permanent one fix its cause (the"
              + " error above), then payrelay check --repair --operator <you> grants it again"
              + " (REGRANT)";
      default -> "see the runbook";
    };
  }

  /** The most recent open cause's message, or null when none is open. */
  String lastMessage() {
    String last = null;
    for (String message : causes.values()) {
      last = message;
    }
    return last;
  }
}
