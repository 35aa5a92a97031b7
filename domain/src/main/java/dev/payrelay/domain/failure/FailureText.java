package dev.payrelay.domain.failure;

import java.util.ArrayList;
import java.util.List;

/**
 * A failure as one line that keeps the server's own reason: the SDK's wrappers (e.g. Temporal's
 * {@code WorkflowServiceException}, whose message names the workflow but not why) are followed by
 * their causes down to the gRPC status or broker reply that says why, e.g. {@code INVALID_ARGUMENT:
 * invalid value for search attribute PaymentState of type Int}. Stored in {@code
 * outbox_event.last_error} and logged.
 */
public final class FailureText {

  /** Causes beyond this depth add nothing an operator reads. */
  private static final int MAX_DEPTH = 5;

  private FailureText() {}

  /**
   * {@code failure} and its causes, outermost first, as {@code Type: message; caused by Type:
   * message}; a cause whose message is already part of the text is left out.
   */
  public static String of(Throwable failure) {
    List<String> parts = new ArrayList<>();
    StringBuilder text = new StringBuilder();
    int depth = 0;
    for (Throwable t = failure; t != null && depth < MAX_DEPTH; t = t.getCause(), depth++) {
      String message = t.getMessage();
      if (message != null && !message.isBlank() && text.indexOf(message) >= 0) {
        continue;
      }
      String part =
          t.getClass().getSimpleName()
              + (message == null || message.isBlank() ? "" : ": " + message);
      parts.add(part);
      text.append(part).append('\n');
      if (t.getCause() == t) {
        break;
      }
    }
    return String.join("; caused by ", parts);
  }
}
