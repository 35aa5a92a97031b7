package dev.payrelay.ledger.inbox;

import static dev.payrelay.ledger.db.generated.Tables.WEBHOOK_INBOX;

import dev.payrelay.ledger.db.RenderedQuery;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.db.Text;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
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
 * cut to fit (the raw body keeps them whole). A request refused without a verified signature keeps
 * only its body's first bytes and its hash ({@link #complete}); {@link WebhookInboxRetention}
 * purges old rows.
 */
public final class WebhookInboxStore {

  // Every callback's insert, rendered once (RenderedQuery); its completion: InboxCompletions.
  private static final RenderedQuery RECORD =
      RenderedQuery.of(
          DSL.insertInto(WEBHOOK_INBOX)
              .set(WEBHOOK_INBOX.CHANNEL, DSL.param("channel", String.class))
              .set(WEBHOOK_INBOX.RECEIVED_AT, SqlTime.now())
              .set(WEBHOOK_INBOX.REMOTE_ADDR, DSL.param("remoteAddr", String.class))
              .set(WEBHOOK_INBOX.HEADERS, DSL.param("headers", String.class))
              .set(WEBHOOK_INBOX.RAW_BODY, DSL.param("rawBody", byte[].class))
              .set(WEBHOOK_INBOX.BODY_SHA256, DSL.param("bodySha256", String.class))
              .set(WEBHOOK_INBOX.BODY_BYTES, DSL.param("bodyBytes", Integer.class))
              .set(WEBHOOK_INBOX.OUTCOME, WebhookInboxStore.RECEIVED),
          "channel",
          "remoteAddr",
          "headers",
          "rawBody",
          "bodySha256",
          "bodyBytes");

  /**
   * The largest {@code rejectedBodyBytes}: the webhook's default body limit, beyond which a prefix
   * is no longer a prefix.
   */
  public static final int MAX_REJECTED_BODY_BYTES = 65_536;

  /** The default {@code rejectedBodyBytes}: 4 KiB. */
  public static final int DEFAULT_REJECTED_BODY_BYTES = 4_096;

  /** Outcome of a row stored and not yet decided (e.g. the process died mid-request). */
  public static final String RECEIVED = "RECEIVED";

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
  private final int rejectedBodyBytes;

  /** A store over {@code dsl} keeping {@link #DEFAULT_REJECTED_BODY_BYTES} of a rejected body. */
  public WebhookInboxStore(DSLContext dsl) {
    this(dsl, DEFAULT_REJECTED_BODY_BYTES);
  }

  private WebhookInboxStore(DSLContext dsl, int rejectedBodyBytes) {
    if (rejectedBodyBytes < 0 || rejectedBodyBytes > MAX_REJECTED_BODY_BYTES) {
      throw new IllegalArgumentException(
          "rejectedBodyBytes must be 0.." + MAX_REJECTED_BODY_BYTES + ": " + rejectedBodyBytes);
    }
    this.dsl = dsl;
    this.rejectedBodyBytes = rejectedBodyBytes;
  }

  /**
   * This store keeping the first {@code bytes} (0 to {@link #MAX_REJECTED_BODY_BYTES}) of a
   * rejected callback's body.
   *
   * @throws IllegalArgumentException outside those bounds
   */
  public WebhookInboxStore withRejectedBodyBytes(int bytes) {
    return new WebhookInboxStore(dsl, bytes);
  }

  /**
   * Stores the raw request, whole, with its body's SHA-256 and length, in its own committed
   * transaction; returns the inbox id. Whole, because a row the process stops deciding stays
   * RECEIVED, and {@code payrelay check} reads the payment it names from those bytes.
   */
  public long record(ReceivedCallback request) {
    byte[] body = request.rawBody();
    return RECORD.insertReturningKey(
        dsl,
        Text.fit(request.channel(), WEBHOOK_INBOX.CHANNEL),
        request.remoteAddr(),
        headersText(request.headers()),
        body,
        sha256Hex(body),
        body.length);
  }

  /**
   * Records the outcome of a stored request. An {@link InboxCompletion#unverifiedRefusal()} marks
   * the row rejected and cuts its body to its first {@code rejectedBodyBytes} in the same
   * statement: what such a row holds for good is that prefix, its headers, the hash and length of
   * the whole body, and the outcome.
   *
   * @throws IllegalStateException if no inbox row has that id
   */
  public void complete(long inboxId, InboxCompletion c) {
    if (c.unverifiedRefusal()) {
      InboxCompletions.reject(dsl, inboxId, c, rejectedBodyBytes);
    } else {
      InboxCompletions.complete(dsl, inboxId, c);
    }
  }

  /**
   * As {@link #complete(long, InboxCompletion)} in the transaction {@code tx}, for a decided
   * (verified) callback: its row keeps the whole body.
   */
  public static void complete(DSLContext tx, long inboxId, InboxCompletion c) {
    InboxCompletions.complete(tx, inboxId, c);
  }

  /** The SHA-256 of {@code body}, as 64 lower-case hex digits. */
  static String sha256Hex(byte[] body) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
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
