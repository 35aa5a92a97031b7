package dev.payrelay.cli;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonProcessingException;
import dev.payrelay.api.http.ApiServer;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * What {@code payrelay check} prints. Its JSON form ({@code --json}) is a contract other tools (the
 * soak test) read; keep its shape:
 *
 * <pre>{@code
 * {"checkedAt": "2026-11-28T10:00:00.123456Z", "olderThanSeconds": 600,
 *  "findings": [{"paymentId": "pay_…", "kind": "PAID_WITHOUT_ENTITLEMENT",
 *                "reason": "PAID 2h05m ago; 1 of 2 purchased course(s) not granted …",
 *                "eventId": "…" or null, "repair": "REGRANT"}],
 *  "repaired": 0, "limitReached": []}
 * }</pre>
 *
 * @param checkedAt when the check started, by the database clock (UTC, ISO-8601)
 * @param olderThanSeconds the age ({@code --older-than}) in seconds
 * @param findings every finding, database checks first, in {@link
 *     dev.payrelay.ledger.checks.FindingKind} order
 * @param repaired how many findings {@code --repair} repaired (signal sent and audited)
 * @param limitReached the finding kinds that reached {@code --limit}: more of them may exist (run
 *     again after repairing, or with a higher limit); empty when every check saw all it looked for
 */
@JsonPropertyOrder({"checkedAt", "olderThanSeconds", "findings", "repaired", "limitReached"})
record CheckReport(
    Instant checkedAt,
    long olderThanSeconds,
    List<Entry> findings,
    int repaired,
    List<String> limitReached) {

  /**
   * One finding.
   *
   * @param paymentId the payment; null when a CALLBACK_NOT_DECIDED names none that can be read
   * @param kind a {@link dev.payrelay.ledger.checks.FindingKind} name
   * @param reason what was found
   * @param eventId the outbox event it concerns or that re-drives it, or null
   * @param repair {@code REGRANT}, {@code REPUBLISH} or {@code REDRIVE} when a safe repair exists
   *     and was not run; {@code <repair>: APPLIED (operator_action <id>)} or {@code <repair>:
   *     FAILED <why>} after {@code --repair}; {@code MANUAL: <what to do>} when there is no safe
   *     repair
   */
  @JsonPropertyOrder({"paymentId", "kind", "reason", "eventId", "repair"})
  record Entry(String paymentId, String kind, String reason, String eventId, String repair) {

    boolean repairedNow() {
      return repair.contains(": APPLIED");
    }
  }

  CheckReport {
    findings = List.copyOf(findings);
    limitReached = List.copyOf(limitReached);
  }

  /** The kinds among {@code findings} with at least {@code limit} findings. */
  static List<String> kindsAtLimit(List<Entry> findings, int limit) {
    return findings.stream()
        .collect(
            java.util.stream.Collectors.groupingBy(
                Entry::kind, java.util.TreeMap::new, java.util.stream.Collectors.counting()))
        .entrySet()
        .stream()
        .filter(e -> e.getValue() >= limit)
        .map(java.util.Map.Entry::getKey)
        .toList();
  }

  /** The JSON form, one object, pretty-printed. */
  String json() throws JsonProcessingException {
    return ApiServer.jsonMapper().writerWithDefaultPrettyPrinter().writeValueAsString(this);
  }

  /** A readable table: one line per finding, its repair on the next. */
  void print(PrintWriter out, String scope) {
    out.printf(
        "checked at %s (database clock); %s%n", checkedAt.truncatedTo(ChronoUnit.SECONDS), scope);
    if (findings.isEmpty()) {
      out.println("nothing found");
      return;
    }
    String row = "%-28s %-40s %-36s %s%n";
    out.printf(row, "KIND", "PAYMENT", "EVENT", "REASON");
    for (Entry e : findings) {
      out.printf(
          row,
          e.kind(),
          e.paymentId() == null ? "-" : e.paymentId(),
          e.eventId() == null ? "-" : e.eventId(),
          e.reason());
      out.printf("%-28s repair: %s%n", "", e.repair());
    }
    out.printf("%d finding(s); %d repaired%n", findings.size(), repaired);
    if (!limitReached.isEmpty()) {
      out.printf("--limit reached for %s: more may exist%n", String.join(", ", limitReached));
    }
  }
}
