package dev.payrelay.ledger.inbox;

import static dev.payrelay.ledger.db.generated.Tables.WEBHOOK_INBOX;

import dev.payrelay.ledger.db.RenderedQuery;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.db.Text;
import dev.payrelay.ledger.db.generated.tables.records.WebhookInboxRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.UpdateSetMoreStep;
import org.jooq.impl.DSL;

/**
 * The two statements that record a stored callback's outcome ({@link WebhookInboxStore}), and the
 * columns they set, for a statement of another table that records it in the same round trip (the
 * ledger's confirm).
 */
public final class InboxCompletions {

  private static final List<String> COMPLETION_NAMES =
      List.of("signatureValid", "outcome", "detail", "httpStatus", "paymentId", "notificationId");

  private static final RenderedQuery COMPLETE =
      RenderedQuery.of(
          completion().where(WEBHOOK_INBOX.ID.eq(DSL.param("inboxId", Long.class))),
          names("", "inboxId"));

  // A refusal without a verified signature: the body is cut to its first keepBytes in the same
  // statement, by the database, so the bytes are not sent again.
  private static final RenderedQuery REJECT =
      RenderedQuery.of(
          completion()
              .set(WEBHOOK_INBOX.REJECTED, true)
              .set(
                  WEBHOOK_INBOX.RAW_BODY,
                  DSL.field(
                      "substring({0}, 1, {1})",
                      byte[].class, WEBHOOK_INBOX.RAW_BODY, DSL.param("keepBytes", Integer.class)))
              .where(WEBHOOK_INBOX.ID.eq(DSL.param("inboxId", Long.class))),
          names("", "keepBytes", "inboxId"));

  private InboxCompletions() {}

  /**
   * Records {@code c} on row {@code inboxId}, in {@code dsl}'s transaction if it has one.
   *
   * @throws IllegalStateException if no inbox row has that id
   */
  static void complete(DSLContext dsl, long inboxId, InboxCompletion c) {
    requireOne(COMPLETE.execute(dsl, values(c, null, inboxId)), inboxId);
  }

  /**
   * Records {@code c}, marks the row rejected and cuts its body to its first {@code keepBytes}.
   *
   * @throws IllegalStateException if no inbox row has that id
   */
  static void reject(DSLContext dsl, long inboxId, InboxCompletion c, int keepBytes) {
    requireOne(REJECT.execute(dsl, values(c, keepBytes, inboxId)), inboxId);
  }

  private static UpdateSetMoreStep<WebhookInboxRecord> completion() {
    return DSL.update(WEBHOOK_INBOX).set(sets(""));
  }

  /**
   * The {@code webhook_inbox} columns a completion sets, each to a parameter named {@code prefix}
   * plus its name in {@link #names}, and {@code processed_at} to the database clock.
   */
  public static Map<Field<?>, Field<?>> sets(String prefix) {
    Map<Field<?>, Field<?>> sets = new LinkedHashMap<>();
    sets.put(WEBHOOK_INBOX.SIGNATURE_VALID, DSL.param(prefix + "signatureValid", Boolean.class));
    sets.put(WEBHOOK_INBOX.OUTCOME, DSL.param(prefix + "outcome", String.class));
    sets.put(WEBHOOK_INBOX.OUTCOME_DETAIL, DSL.param(prefix + "detail", String.class));
    sets.put(WEBHOOK_INBOX.HTTP_STATUS, DSL.param(prefix + "httpStatus", Integer.class));
    sets.put(WEBHOOK_INBOX.PAYMENT_ID, DSL.param(prefix + "paymentId", String.class));
    sets.put(WEBHOOK_INBOX.NOTIFICATION_ID, DSL.param(prefix + "notificationId", String.class));
    sets.put(WEBHOOK_INBOX.PROCESSED_AT, SqlTime.now());
    return sets;
  }

  /** The parameter names of {@link #sets} with {@code prefix}, in order, then {@code more}. */
  public static String[] names(String prefix, String... more) {
    List<String> names = new ArrayList<>();
    COMPLETION_NAMES.forEach(name -> names.add(prefix + name));
    names.addAll(Arrays.asList(more));
    return names.toArray(String[]::new);
  }

  /**
   * The values of {@link #sets}' parameters for {@code c}, in {@link #names} order: detail cut to
   * its column, ids longer than their columns cut to fit.
   */
  public static List<Object> values(InboxCompletion c) {
    return Arrays.asList(
        c.signatureValid(),
        c.outcome(),
        Text.truncate(c.detail()),
        c.httpStatus(),
        Text.fit(c.paymentId(), WEBHOOK_INBOX.PAYMENT_ID),
        Text.fit(c.notificationId(), WEBHOOK_INBOX.NOTIFICATION_ID));
  }

  /** The values of {@link #COMPLETE} ({@code keepBytes} null) or {@link #REJECT}, in order. */
  private static Object[] values(InboxCompletion c, Integer keepBytes, long inboxId) {
    List<Object> values = new ArrayList<>(values(c));
    if (keepBytes != null) {
      values.add(keepBytes);
    }
    values.add(inboxId);
    return values.toArray();
  }

  /**
   * Fails as a completion of a missing row does, for a statement that completes the row together
   * with another table's and so cannot tell from its row count which one it missed (the ledger's
   * confirm): reads whether {@code inboxId} exists, one statement, only on that statement's miss.
   *
   * @throws IllegalStateException "no webhook_inbox row" when there is none
   */
  public static void requireRow(DSLContext tx, long inboxId) {
    requireOne(tx.fetchCount(WEBHOOK_INBOX, WEBHOOK_INBOX.ID.eq(inboxId)), inboxId);
  }

  private static void requireOne(int changed, long inboxId) {
    if (changed != 1) {
      throw new IllegalStateException("no webhook_inbox row " + inboxId);
    }
  }
}
