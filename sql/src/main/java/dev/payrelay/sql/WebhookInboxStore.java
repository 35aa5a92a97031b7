package dev.payrelay.sql;

import static dev.payrelay.sql.generated.Tables.WEBHOOK_INBOX;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * The webhook inbox: every callback is stored, raw, before it is verified, so nothing that reached
 * us is lost, including rejected requests. Only the headers a channel needs are kept, every other
 * value is stored as {@code [redacted]} ({@link #KEPT_HEADERS}); ids longer than their columns are
 * cut to fit (the raw body keeps them whole).
 */
public final class WebhookInboxStore {

  // Every callback's two statements, rendered once (RenderedQuery).
  private static final RenderedQuery RECORD =
      RenderedQuery.of(
          DSL.insertInto(WEBHOOK_INBOX)
              .set(WEBHOOK_INBOX.CHANNEL, DSL.param("channel", String.class))
              .set(WEBHOOK_INBOX.RECEIVED_AT, SqlTime.now())
              .set(WEBHOOK_INBOX.REMOTE_ADDR, DSL.param("remoteAddr", String.class))
              .set(WEBHOOK_INBOX.HEADERS, DSL.param("headers", String.class))
              .set(WEBHOOK_INBOX.RAW_BODY, DSL.param("rawBody", byte[].class))
              .set(WEBHOOK_INBOX.OUTCOME, WebhookInboxStore.RECEIVED),
          "channel",
          "remoteAddr",
          "headers",
          "rawBody");

  private static final RenderedQuery COMPLETE =
      RenderedQuery.of(
          DSL.update(WEBHOOK_INBOX)
              .set(WEBHOOK_INBOX.SIGNATURE_VALID, DSL.param("signatureValid", Boolean.class))
              .set(WEBHOOK_INBOX.OUTCOME, DSL.param("outcome", String.class))
              .set(WEBHOOK_INBOX.OUTCOME_DETAIL, DSL.param("detail", String.class))
              .set(WEBHOOK_INBOX.HTTP_STATUS, DSL.param("httpStatus", Integer.class))
              .set(WEBHOOK_INBOX.PAYMENT_ID, DSL.param("paymentId", String.class))
              .set(WEBHOOK_INBOX.NOTIFICATION_ID, DSL.param("notificationId", String.class))
              .set(WEBHOOK_INBOX.PROCESSED_AT, SqlTime.now())
              .where(WEBHOOK_INBOX.ID.eq(DSL.param("inboxId", Long.class))),
          "signatureValid",
          "outcome",
          "detail",
          "httpStatus",
          "paymentId",
          "notificationId",
          "inboxId");

  /** Outcome of a row stored and not yet decided (e.g. the process died mid-request). */
  public static final String RECEIVED = "RECEIVED";

  /** Credentials a proxy or client may add; never stored. */
  /**
   * The headers stored with their value (lower case): what a channel needs to verify a stored
   * callback again — the sandbox's {@code X-Sandbox-Signature} and {@code X-Sandbox-Timestamp},
   * Stripe's {@code Stripe-Signature}, WeChat Pay's {@code Wechatpay-*} ({@link #KEPT_PREFIX}),
   * Alipay none (its signature is in the form body) — and plain transport ones that carry no
   * credential. Every other header is stored as {@value #REDACTED}: an allow-list, so a credential
   * in a header nobody thought of ({@code X-Auth-Token}, {@code Api-Key}) is never kept in clear.
   */
  static final Set<String> KEPT_HEADERS =
      Set.of(
          "content-type",
          "content-length",
          "content-encoding",
          "user-agent",
          "host",
          "accept",
          "date",
          "x-forwarded-for",
          "x-forwarded-proto",
          "x-real-ip",
          "request-id",
          "x-request-id",
          "x-sandbox-signature",
          "x-sandbox-timestamp",
          "stripe-signature");

  /** WeChat Pay's signature, timestamp, nonce, serial and signature type headers (APIv3). */
  static final String KEPT_PREFIX = "wechatpay-";

  /** What a header not in {@link #KEPT_HEADERS} is stored as. */
  static final String REDACTED = "[redacted]";

  private final DSLContext dsl;

  /** A store over {@code dsl}. */
  public WebhookInboxStore(DSLContext dsl) {
    this.dsl = dsl;
  }

  /** Stores the raw request in its own committed transaction; returns the inbox id. */
  public long record(ReceivedCallback request) {
    return RECORD.insertReturningKey(
        dsl,
        Text.fit(request.channel(), WEBHOOK_INBOX.CHANNEL),
        request.remoteAddr(),
        headersText(request.headers()),
        request.rawBody());
  }

  /**
   * Records the outcome of a stored request.
   *
   * @throws IllegalStateException if no inbox row has that id
   */
  public void complete(long inboxId, InboxCompletion c) {
    complete(dsl, inboxId, c);
  }

  /** As {@link #complete(long, InboxCompletion)}, in the transaction {@code tx}. */
  static void complete(DSLContext tx, long inboxId, InboxCompletion c) {
    int changed =
        COMPLETE.execute(
            tx,
            c.signatureValid(),
            c.outcome(),
            Text.truncate(c.detail()),
            c.httpStatus(),
            Text.fit(c.paymentId(), WEBHOOK_INBOX.PAYMENT_ID),
            Text.fit(c.notificationId(), WEBHOOK_INBOX.NOTIFICATION_ID),
            inboxId);
    if (changed != 1) {
      throw new IllegalStateException("no webhook_inbox row " + inboxId);
    }
  }

  /**
   * The rows still {@link #RECEIVED} that were stored more than {@code olderThan} and at most
   * {@code within} ago, oldest first ({@code received_at}, then id), after {@code after} (null:
   * from the oldest), at most {@code limit} (served by {@code ix_webhook_inbox_outcome}). Pass the
   * last row of a page as {@code after} for the next. Their headers are read back from the stored
   * text, one {@code name: value} per line.
   */
  public List<StoredCallback> undecided(
      Duration olderThan, Duration within, StoredCallback after, int limit) {
    Field<Long> age = SqlTime.secondsSince(WEBHOOK_INBOX.RECEIVED_AT);
    Condition afterCursor =
        after == null
            ? DSL.noCondition()
            : DSL.row(WEBHOOK_INBOX.RECEIVED_AT, WEBHOOK_INBOX.ID)
                .gt(DSL.row(SqlTime.at(after.receivedAt()), DSL.val(after.inboxId())));
    return dsl.select(
            WEBHOOK_INBOX.ID,
            WEBHOOK_INBOX.RECEIVED_AT,
            age,
            WEBHOOK_INBOX.CHANNEL,
            WEBHOOK_INBOX.HEADERS,
            WEBHOOK_INBOX.RAW_BODY,
            WEBHOOK_INBOX.REMOTE_ADDR)
        .from(WEBHOOK_INBOX)
        .where(WEBHOOK_INBOX.OUTCOME.eq(RECEIVED))
        .and(WEBHOOK_INBOX.RECEIVED_AT.lt(SqlTime.nowPlus(olderThan.negated())))
        .and(WEBHOOK_INBOX.RECEIVED_AT.ge(SqlTime.nowPlus(within.negated())))
        .and(afterCursor)
        .orderBy(WEBHOOK_INBOX.RECEIVED_AT, WEBHOOK_INBOX.ID)
        .limit(limit)
        .fetch(
            r ->
                new StoredCallback(
                    r.value1(),
                    SqlTime.utc(r.value2()),
                    r.value3(),
                    new ReceivedCallback(
                        r.value4(), headersOf(r.value5()), r.value6(), r.value7())));
  }

  /** The headers of a stored text ({@link #headersText}): one {@code name: value} per line. */
  static Map<String, String> headersOf(String text) {
    Map<String, String> headers = new TreeMap<>();
    for (String line : text.split("\n")) {
      int colon = line.indexOf(": ");
      if (colon > 0) {
        headers.put(line.substring(0, colon), line.substring(colon + 2));
      }
    }
    return headers;
  }

  private static boolean kept(String header) {
    String name = header.toLowerCase(Locale.ROOT);
    return KEPT_HEADERS.contains(name) || name.startsWith(KEPT_PREFIX);
  }

  private static String headersText(Map<String, String> headers) {
    return new TreeMap<>(headers)
        .entrySet().stream()
            .map(e -> e.getKey() + ": " + (kept(e.getKey()) ? e.getValue() : REDACTED))
            .collect(Collectors.joining("\n"));
  }
}
