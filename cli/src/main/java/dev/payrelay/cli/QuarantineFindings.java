package dev.payrelay.cli;

import dev.payrelay.amqp.AmqpConfig;
import dev.payrelay.amqp.consume.ConsumerQuarantine;
import dev.payrelay.amqp.consume.QuarantinedMessage;
import dev.payrelay.amqp.consume.UnknownConsumerException;
import dev.payrelay.app.config.ConsumersSettings;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.ledger.checks.Ages;
import dev.payrelay.ledger.checks.CheckScope;
import dev.payrelay.ledger.checks.FindingKind;
import dev.payrelay.ledger.checks.PaymentFinding;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code payrelay check}'s {@link FindingKind#QUARANTINED_MESSAGE}s: every message in each
 * consumer's quarantine queue (RabbitMQ, read as {@code consumers quarantine list} does: peeked and
 * returned), at most {@link CheckScope#limit()} (and {@value ConsumerQuarantine#MAX_MESSAGES}) per
 * consumer. A consumer whose queues the broker does not have has none.
 */
final class QuarantineFindings {

  private static final Pattern NAMES = Pattern.compile("^consumer (\\S+), entry (\\S+),");

  private final ConsumerQuarantine quarantine;

  QuarantineFindings(PayrelayConfig config) {
    PayrelayConfig.AmqpSettings amqp = config.amqp();
    this.quarantine =
        new ConsumerQuarantine(
            new AmqpConfig(amqp.uri(), amqp.exchange(), amqp.confirmTimeout(), 1, "payrelay-check"),
            config.consumers().queuePrefix());
  }

  /**
   * The findings, each reason {@code consumer <name>, entry <id>, message <id or none>: <REASON>
   * <age> ago: <detail>}; ages from {@code now} (the database clock).
   *
   * @throws IOException when the broker cannot be reached or fails the request
   */
  List<PaymentFinding> run(CheckScope scope, Instant now) throws IOException {
    List<PaymentFinding> found = new ArrayList<>();
    for (String consumer : ConsumersSettings.NAMES) {
      try {
        int limit = Math.min(scope.limit(), ConsumerQuarantine.MAX_MESSAGES);
        for (QuarantinedMessage m : quarantine.list(consumer, limit).messages()) {
          found.add(finding(consumer, m, now));
        }
      } catch (UnknownConsumerException e) {
        // Never declared on this broker: nothing can be quarantined there.
      }
    }
    return found;
  }

  private static PaymentFinding finding(String consumer, QuarantinedMessage m, Instant now) {
    return new PaymentFinding(
        null,
        FindingKind.QUARANTINED_MESSAGE,
        "consumer "
            + consumer
            + ", entry "
            + m.entryId()
            + ", message "
            + (m.eventId() == null ? "none" : m.eventId())
            + ": "
            + (m.reason() == null ? "unknown reason" : m.reason())
            + age(m.quarantinedAt(), now)
            + (m.detail() == null ? "" : ": " + m.detail()),
        m.eventId() != null && m.eventId().length() <= 36 ? m.eventId() : null);
  }

  private static String age(String quarantinedAt, Instant now) {
    if (quarantinedAt == null) {
      return "";
    }
    try {
      return " "
          + Ages.of(Duration.between(Instant.parse(quarantinedAt), now).toSeconds())
          + " ago";
    } catch (DateTimeParseException e) {
      return " at " + quarantinedAt;
    }
  }

  /** The fix for one of this class's findings, naming its consumer and entry id. */
  static String fix(PaymentFinding f) {
    Matcher names = NAMES.matcher(f.reason());
    String consumer = names.find() ? names.group(1) : "<consumer>";
    String entry = names.find(0) ? names.group(2) : "<entryId>";
    boolean noId = f.reason().contains(", message none:");
    return (noId
            ? "it has no message_id, so it cannot be replayed: "
            : "fix what its detail names, then ./payrelay consumers quarantine replay "
                + consumer
                + " --entry "
                + entry
                + " --reason <why>; or ")
        + "./payrelay consumers quarantine discard "
        + consumer
        + " "
        + entry
        + " --reason <why>";
  }
}
