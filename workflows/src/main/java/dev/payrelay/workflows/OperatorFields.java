package dev.payrelay.workflows;

/** The rule every operator signal shares: who and why are required. */
final class OperatorFields {

  private OperatorFields() {}

  /** Why {@code operator}/{@code reason} are unacceptable, or null when both are non-blank. */
  static String missing(String operator, String reason) {
    if (operator == null || operator.isBlank()) {
      return "operator is required";
    }
    if (reason == null || reason.isBlank()) {
      return "reason is required";
    }
    return null;
  }
}
