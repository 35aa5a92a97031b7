package dev.payrelay.domain.event;

import java.util.Collection;
import java.util.TreeSet;

/**
 * The words of a payload version no code of this build reads, the same for the publisher and every
 * consumer, so the operator who finds it (a DEAD event, a quarantined message) knows which event it
 * is and which versions would have been read.
 */
public final class PayloadVersions {

  private PayloadVersions() {}

  /**
   * "event evt_1 (PaymentConfirmed) has payload version 0; this build reads PaymentConfirmed
   * payload versions 1".
   *
   * @param eventId the outbox event id (the AMQP {@code message_id})
   * @param eventType the event type's wire name
   * @param version the version the event carries
   * @param known the versions of {@code eventType} this build reads
   */
  public static String unknown(
      String eventId, String eventType, int version, Collection<Integer> known) {
    return "event "
        + eventId
        + " ("
        + eventType
        + ") has payload version "
        + version
        + "; this build reads "
        + eventType
        + " payload versions "
        + String.join(", ", new TreeSet<>(known).stream().map(String::valueOf).toList());
  }
}
