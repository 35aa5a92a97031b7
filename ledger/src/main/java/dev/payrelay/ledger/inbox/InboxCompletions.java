package dev.payrelay.ledger.inbox;

import static dev.payrelay.ledger.db.generated.Tables.WEBHOOK_INBOX;

import dev.payrelay.ledger.db.RenderedQuery;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.db.Text;
import dev.payrelay.ledger.db.generated.tables.records.WebhookInboxRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.UpdateSetMoreStep;
import org.jooq.impl.DSL;

/** The two statements that record a stored callback's outcome ({@link WebhookInboxStore}). */
final class InboxCompletions {

  private static final String[] COMPLETE_NAMES = {
    "signatureValid", "outcome", "detail", "httpStatus", "paymentId", "notificationId", "inboxId"
  };

  private static final RenderedQuery COMPLETE =
      RenderedQuery.of(
          completion().where(WEBHOOK_INBOX.ID.eq(DSL.param("inboxId", Long.class))),
          COMPLETE_NAMES);

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
          "signatureValid",
          "outcome",
          "detail",
          "httpStatus",
          "paymentId",
          "notificationId",
          "keepBytes",
          "inboxId");

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
    return DSL.update(WEBHOOK_INBOX)
        .set(WEBHOOK_INBOX.SIGNATURE_VALID, DSL.param("signatureValid", Boolean.class))
        .set(WEBHOOK_INBOX.OUTCOME, DSL.param("outcome", String.class))
        .set(WEBHOOK_INBOX.OUTCOME_DETAIL, DSL.param("detail", String.class))
        .set(WEBHOOK_INBOX.HTTP_STATUS, DSL.param("httpStatus", Integer.class))
        .set(WEBHOOK_INBOX.PAYMENT_ID, DSL.param("paymentId", String.class))
        .set(WEBHOOK_INBOX.NOTIFICATION_ID, DSL.param("notificationId", String.class))
        .set(WEBHOOK_INBOX.PROCESSED_AT, SqlTime.now());
  }

  /** The values of {@link #COMPLETE} ({@code keepBytes} null) or {@link #REJECT}, in order. */
  private static Object[] values(InboxCompletion c, Integer keepBytes, long inboxId) {
    List<Object> values =
        new ArrayList<>(
            Arrays.asList(
                c.signatureValid(),
                c.outcome(),
                Text.truncate(c.detail()),
                c.httpStatus(),
                Text.fit(c.paymentId(), WEBHOOK_INBOX.PAYMENT_ID),
                Text.fit(c.notificationId(), WEBHOOK_INBOX.NOTIFICATION_ID)));
    if (keepBytes != null) {
      values.add(keepBytes);
    }
    values.add(inboxId);
    return values.toArray();
  }

  private static void requireOne(int changed, long inboxId) {
    if (changed != 1) {
      throw new IllegalStateException("no webhook_inbox row " + inboxId);
    }
  }
}
