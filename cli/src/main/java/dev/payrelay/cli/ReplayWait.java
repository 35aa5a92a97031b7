package dev.payrelay.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code payrelay outbox replay --wait}: follows replayed events ({@code GET
 * /v1/admin/outbox/{eventId}}) until each is SENT (the broker confirmed it), DEAD again (its cause
 * persists: the row's {@code last_error} is the broker's own text) or the wait is over. A replay
 * keeps an event's failure count, so an event is DEAD <em>again</em> once it is DEAD with more
 * attempts than before the replay; DEAD with as many means its workflow has not taken the replay
 * yet.
 */
final class ReplayWait {

  /** How often the events are read. */
  private static final Duration POLL = Duration.ofMillis(500);

  private ReplayWait() {}

  /**
   * Waits for the events of {@code attemptsBefore} (event id → its {@code attempts} before the
   * replay), printing one line per event as it settles, and, at the end, one per event still in
   * flight.
   *
   * @return {@link AdminClient#OK} when every event is SENT; {@link AdminClient#REFUSED} when one
   *     went DEAD again (or was DISCARDED); else {@link AdminClient#UNAVAILABLE} when one was still
   *     in flight at {@code timeout}
   */
  static int await(
      AdminClient admin, Map<String, Integer> attemptsBefore, Duration timeout, PrintWriter out)
      throws InterruptedException {
    Instant start = Instant.now();
    Map<String, JsonNode> open = new LinkedHashMap<>();
    attemptsBefore.keySet().forEach(id -> open.put(id, null));
    int exit = AdminClient.OK;
    while (true) {
      for (Iterator<Map.Entry<String, JsonNode>> it = open.entrySet().iterator(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        JsonNode row = admin.get("/v1/admin/outbox/" + e.getKey(), Map.of());
        int verdict = settled(e.getKey(), row, attemptsBefore.get(e.getKey()), start, out);
        if (verdict < 0) {
          e.setValue(row);
        } else {
          exit = Math.max(exit, verdict);
          it.remove();
        }
      }
      out.flush();
      if (open.isEmpty()) {
        return exit;
      }
      if (!Instant.now().isBefore(start.plus(timeout))) {
        open.forEach((id, row) -> stillOpen(id, row, start, out));
        out.flush();
        return exit == AdminClient.OK ? AdminClient.UNAVAILABLE : exit;
      }
      Thread.sleep(POLL.toMillis());
    }
  }

  /** Prints and returns the exit code of a settled event; -1 while it is still in flight. */
  private static int settled(
      String eventId, JsonNode row, int attemptsBefore, Instant start, PrintWriter out) {
    String status = row.path("status").asText();
    int attempts = row.path("attempts").asInt();
    long seconds = Duration.between(start, Instant.now()).toSeconds();
    switch (status) {
      case "SENT" -> {
        out.printf("%s SENT after %d s%n", eventId, seconds);
        return AdminClient.OK;
      }
      case "DISCARDED" -> {
        out.printf("%s DISCARDED after %d s: it will not be published%n", eventId, seconds);
        return AdminClient.REFUSED;
      }
      case "DEAD" -> {
        if (attempts <= attemptsBefore) {
          return -1;
        }
        out.printf(
            "%s DEAD again after %d s (attempts %d -> %d): %s%n",
            eventId, seconds, attemptsBefore, attempts, lastError(row));
        return AdminClient.REFUSED;
      }
      default -> {
        return -1;
      }
    }
  }

  private static void stillOpen(String eventId, JsonNode row, Instant start, PrintWriter out) {
    long seconds = Duration.between(start, Instant.now()).toSeconds();
    String status = row == null ? "unknown" : row.path("status").asText();
    out.printf(
        "%s still %s after %d s, neither SENT nor DEAD again%s; see payrelay outbox list"
            + " --status %s%n",
        eventId,
        "DEAD".equals(status) ? "DEAD (its workflow has not taken the replay yet)" : status,
        seconds,
        row == null || row.path("lastError").isNull()
            ? ""
            : " (last error: " + lastError(row) + ")",
        status);
  }

  private static String lastError(JsonNode row) {
    JsonNode e = row.path("lastError");
    return e.isMissingNode() || e.isNull() ? "(no error recorded)" : e.asText();
  }
}
