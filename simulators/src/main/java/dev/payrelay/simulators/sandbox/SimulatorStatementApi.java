package dev.payrelay.simulators.sandbox;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.payrelay.channels.sandbox.SandboxJson;
import dev.payrelay.channels.sandbox.SandboxStatementReader;
import dev.payrelay.domain.channel.StatementLine;
import io.javalin.http.Context;
import java.io.ByteArrayOutputStream;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;

/**
 * GET /sandbox/v1/statements/{yyyy-MM-dd}?page_token=..&page_size=..: one page of the day's
 * statement as JSON lines ({@value #NDJSON}), one object per line in this key order:
 *
 * <pre>{@code
 * {"channel_txn_id":"sbx_…","payment_id":"p-1","kind":"PAYMENT","amount":"10.50","currency":"USD",
 *  "status":"PAID","occurred_at":"2026-01-15T10:00:00Z"}
 * }</pre>
 *
 * <p>{@code amount} is a decimal string in major units; {@code payment_id} may be null. A REFUND
 * line's {@code channel_txn_id} is the refund's id ({@code sbr_…}) and it carries {@code
 * "refund_no"}, our refund number, after {@code occurred_at} when the refund has one (a dashboard
 * refund has none). The next page's token is in the {@value #NEXT_PAGE_TOKEN} header, absent on the
 * last page. 400 for a bad date, page_size (1..{@value #MAX_PAGE_SIZE}, default {@value
 * #DEFAULT_PAGE_SIZE}) or page_token.
 */
public final class SimulatorStatementApi {

  /** The media type of a statement page (JSON lines). */
  static final String NDJSON = SandboxStatementReader.NDJSON;

  /** The response header carrying the next page's token. */
  static final String NEXT_PAGE_TOKEN = SandboxStatementReader.NEXT_PAGE_TOKEN;

  static final int DEFAULT_PAGE_SIZE = 100;
  static final int MAX_PAGE_SIZE = 1000;

  private final SimulatedStatement statement;
  private final SandboxJson json;
  private final IdempotencyLog keys;

  public SimulatorStatementApi(
      SimulatedStatement statement, SandboxJson json, IdempotencyLog keys) {
    this.statement = statement;
    this.json = json;
    this.keys = keys;
  }

  /** Serves one page; records the request's Idempotency-Key under the date. */
  public void page(Context ctx) {
    LocalDate date = date(ctx.pathParam("date"));
    keys.record(IdempotencyLog.statementScope(date), ctx);
    SimulatedStatement.Page page =
        statement.page(date, ctx.queryParam("page_token"), pageSize(ctx.queryParam("page_size")));
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    for (StatementLine line : page.lines()) {
      body.writeBytes(json.bytes(toJson(line)));
      body.write('\n');
    }
    if (page.nextPageToken() != null) {
      ctx.header(NEXT_PAGE_TOKEN, page.nextPageToken());
    }
    ctx.status(200).contentType(NDJSON).result(body.toByteArray());
  }

  private ObjectNode toJson(StatementLine line) {
    ObjectNode node = json.newObject();
    node.put("channel_txn_id", line.channelTxnId());
    node.put("payment_id", line.paymentId());
    node.put("kind", line.kind());
    node.put("amount", line.amount().toDecimalString());
    node.put("currency", line.amount().currencyCode());
    node.put("status", line.status().name());
    node.put("occurred_at", line.occurredAt().toString());
    if (line.refundNo() != null) {
      node.put("refund_no", line.refundNo());
    }
    return node;
  }

  private static LocalDate date(String text) {
    try {
      return LocalDate.parse(text);
    } catch (DateTimeParseException e) {
      throw new SimulatorException(400, "statement date is not yyyy-MM-dd: " + text);
    }
  }

  private static int pageSize(String text) {
    if (text == null) {
      return DEFAULT_PAGE_SIZE;
    }
    if (!text.matches("[0-9]{1,4}")
        || Integer.parseInt(text) < 1
        || Integer.parseInt(text) > MAX_PAGE_SIZE) {
      throw new SimulatorException(400, "page_size must be 1.." + MAX_PAGE_SIZE + ": " + text);
    }
    return Integer.parseInt(text);
  }
}
