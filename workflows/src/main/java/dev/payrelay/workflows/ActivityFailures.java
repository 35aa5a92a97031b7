package dev.payrelay.workflows;

import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import java.util.Arrays;

/** How workflow code names activity failures: in messages, and as RetryOptions' failure types. */
final class ActivityFailures {

  private ActivityFailures() {}

  /** "TYPE: message" of an application failure, else the cause's description (e.g. a timeout). */
  static String reasonOf(ActivityFailure e) {
    if (e.getCause() instanceof ApplicationFailure af) {
      return af.getType() + ": " + af.getOriginalMessage();
    }
    // Not an application error: the last attempt timed out (or similar); keep its description.
    return String.valueOf(e.getCause());
  }

  /** The names of failure-taxonomy constants, which are their {@code ApplicationFailure} types. */
  static String[] names(Enum<?>[] values) {
    return Arrays.stream(values).map(Enum::name).toArray(String[]::new);
  }
}
