package dev.payrelay.app.config.binder;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The environment variables that were renamed when every duration and size got its one syntax
 * ({@link Syntax}): the unit left the name and joined the value ({@code
 * PAYRELAY_QUERY_GRACE_SECONDS=30} became {@code PAYRELAY_QUERY_GRACE=30s}). An old name is refused
 * at start, naming the new one and the value in the new syntax, so nobody runs with a setting
 * silently ignored.
 *
 * @param oldName the variable as it was
 * @param newName the variable now
 * @param unit the unit the old name implied: {@code ms}, {@code s}, {@code d} or {@code B}
 */
public record Renamed(String oldName, String newName, String unit) {

  /** Every renamed variable. */
  public static final List<Renamed> ALL =
      List.of(
          new Renamed("PAYRELAY_AMQP_CONFIRM_TIMEOUT_MS", "PAYRELAY_AMQP_CONFIRM_TIMEOUT", "ms"),
          new Renamed("PAYRELAY_API_BODY_GRACE_SECONDS", "PAYRELAY_API_BODY_GRACE", "s"),
          new Renamed("PAYRELAY_API_BODY_MIN_BYTES_PER_SECOND", "PAYRELAY_API_BODY_MIN_RATE", "B"),
          new Renamed("PAYRELAY_API_HEADER_TIMEOUT_SECONDS", "PAYRELAY_API_HEADER_TIMEOUT", "s"),
          new Renamed("PAYRELAY_API_LOCK_WAIT_SECONDS", "PAYRELAY_API_LOCK_WAIT", "s"),
          new Renamed(
              "PAYRELAY_CONSUMER_INBOX_RETENTION_DAYS", "PAYRELAY_CONSUMER_INBOX_RETENTION", "d"),
          new Renamed("PAYRELAY_DISPATCH_LEASE_SECONDS", "PAYRELAY_DISPATCH_LEASE", "s"),
          new Renamed("PAYRELAY_DISPATCH_POLL_MAX_MS", "PAYRELAY_DISPATCH_POLL_MAX", "ms"),
          new Renamed("PAYRELAY_DISPATCH_REDISPATCH_SECONDS", "PAYRELAY_DISPATCH_REDISPATCH", "s"),
          new Renamed("PAYRELAY_EXPIRY_SWEEP_GRACE_SECONDS", "PAYRELAY_EXPIRY_SWEEP_GRACE", "s"),
          new Renamed("PAYRELAY_EXPIRY_SWEEP_SECONDS", "PAYRELAY_EXPIRY_SWEEP", "s"),
          new Renamed("PAYRELAY_GRANT_REPAIR_AFTER_SECONDS", "PAYRELAY_GRANT_REPAIR_AFTER", "s"),
          new Renamed("PAYRELAY_GRANT_REPAIR_SECONDS", "PAYRELAY_GRANT_REPAIR", "s"),
          new Renamed(
              "PAYRELAY_INBOX_REJECTED_BODY_BYTES", "PAYRELAY_INBOX_REJECTED_BODY_SIZE", "B"),
          new Renamed(
              "PAYRELAY_INBOX_REJECTED_RETENTION_DAYS", "PAYRELAY_INBOX_REJECTED_RETENTION", "d"),
          new Renamed("PAYRELAY_INBOX_RETENTION_DAYS", "PAYRELAY_INBOX_RETENTION", "d"),
          new Renamed("PAYRELAY_OUTBOX_RETENTION_DAYS", "PAYRELAY_OUTBOX_RETENTION", "d"),
          new Renamed("PAYRELAY_PAYMENT_TTL_SECONDS", "PAYRELAY_PAYMENT_TTL", "s"),
          new Renamed("PAYRELAY_QUERY_GRACE_SECONDS", "PAYRELAY_QUERY_GRACE", "s"),
          new Renamed("PAYRELAY_QUERY_INITIAL_SECONDS", "PAYRELAY_QUERY_INITIAL", "s"),
          new Renamed("PAYRELAY_QUERY_MAX_SECONDS", "PAYRELAY_QUERY_MAX", "s"),
          new Renamed("PAYRELAY_READINESS_GRACE_SECONDS", "PAYRELAY_READINESS_GRACE", "s"),
          new Renamed("PAYRELAY_SANDBOX_TOLERANCE_SECONDS", "PAYRELAY_SANDBOX_TOLERANCE", "s"),
          new Renamed("PAYRELAY_SIGNAL_TOKEN_TTL_SECONDS", "PAYRELAY_SIGNAL_TOKEN_TTL", "s"),
          new Renamed("PAYRELAY_WEBHOOK_MAX_BYTES", "PAYRELAY_WEBHOOK_MAX_SIZE", "B"));

  private static final Map<String, Renamed> BY_OLD_NAME =
      ALL.stream().collect(Collectors.toUnmodifiableMap(Renamed::oldName, r -> r));

  /** The rename of {@code variable}, if it is an old name. */
  public static Optional<Renamed> of(String variable) {
    return Optional.ofNullable(BY_OLD_NAME.get(variable));
  }

  /**
   * The refusal of the old name set to {@code value}: {@code PAYRELAY_QUERY_GRACE_SECONDS is no
   * longer read: set PAYRELAY_QUERY_GRACE=30s (the unit is part of the value now)}.
   */
  public String refusal(String value) {
    return oldName
        + " is no longer read: set "
        + newName
        + "="
        + inNewSyntax(value)
        + " (the unit is part of the value now)";
  }

  private String inNewSyntax(String value) {
    String v = value == null ? "" : value.trim();
    if (!v.matches("\\d{1,15}")) {
      return "<number>" + unit;
    }
    long n = Long.parseLong(v);
    return switch (unit) {
      case "ms" -> Syntax.formatDuration(java.time.Duration.ofMillis(n));
      case "s" -> Syntax.formatDuration(java.time.Duration.ofSeconds(n));
      case "d" -> Syntax.formatDuration(java.time.Duration.ofDays(n));
      default -> Syntax.formatSize(n);
    };
  }
}
