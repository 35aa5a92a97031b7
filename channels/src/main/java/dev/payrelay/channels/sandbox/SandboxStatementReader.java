package dev.payrelay.channels.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.StatementLine;
import dev.payrelay.domain.channel.StatementPage;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a 2xx statement page from the sandbox: JSON lines (shape on the simulator's {@code
 * SimulatorStatementApi}) and the next page token from the {@code X-Next-Page-Token} header.
 * Strict, because a reconciliation must not silently skip a line: any malformed line, or a blank
 * token header, is a non-retryable {@link ChannelException} naming the line.
 */
public final class SandboxStatementReader {

  /** The media type of a statement page (JSON lines), asked for in {@code Accept}. */
  public static final String NDJSON = "application/x-ndjson";

  /** The response header carrying the next page's token; absent on the last page. */
  public static final String NEXT_PAGE_TOKEN = "X-Next-Page-Token";

  private static final Set<String> KINDS = Set.of("PAYMENT", "REFUND");

  private final SandboxJson json;

  SandboxStatementReader(SandboxJson json) {
    this.json = json;
  }

  /**
   * Parses one page.
   *
   * @throws ChannelException not retryable, if a line or the token header is malformed
   */
  StatementPage read(LocalDate date, SandboxHttp.Answer answer, String what)
      throws ChannelException {
    String[] texts = answer.bodyText().split("\n", -1);
    List<StatementLine> lines = new ArrayList<>();
    for (int i = 0; i < texts.length; i++) {
      if (!texts[i].isBlank()) {
        lines.add(line(texts[i], i + 1, what));
      }
    }
    return new StatementPage(date, lines, nextPageToken(answer, what));
  }

  private StatementLine line(String text, int number, String what) throws ChannelException {
    try {
      JsonNode node = json.object(text.getBytes(StandardCharsets.UTF_8));
      String kind = SandboxJson.text(node, "kind");
      if (!KINDS.contains(kind)) {
        throw new IllegalArgumentException("kind must be PAYMENT or REFUND: " + kind);
      }
      return new StatementLine(
          SandboxJson.text(node, "channel_txn_id"),
          SandboxJson.optionalText(node, "payment_id").orElse(null),
          kind,
          Money.parse(SandboxJson.text(node, "amount"), SandboxJson.text(node, "currency")),
          ChannelPaymentStatus.valueOf(SandboxJson.text(node, "status")),
          Instant.parse(SandboxJson.text(node, "occurred_at")),
          SandboxJson.optionalText(node, "refund_no").orElse(null));
    } catch (IllegalArgumentException | DateTimeException e) {
      String message = "sandbox " + what + " line " + number + " malformed (" + e.getMessage();
      throw new ChannelException(message + "): " + text, false, e);
    }
  }

  private static String nextPageToken(SandboxHttp.Answer answer, String what)
      throws ChannelException {
    Optional<String> token = answer.headers().firstValue(NEXT_PAGE_TOKEN);
    if (token.isPresent() && token.get().isBlank()) {
      throw new ChannelException("sandbox " + what + " sent a blank next page token", false, null);
    }
    return token.orElse(null);
  }
}
