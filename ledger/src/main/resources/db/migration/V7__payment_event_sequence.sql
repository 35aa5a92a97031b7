-- A per-payment sequence number on every payment event, so consumers can order one payment's
-- messages whatever order the broker delivered them in (README "Ordering"). Portable between
-- MySQL 8 and MariaDB 10.11. (V5 and V6 belong to other features.)

-- The last payment_seq issued for the payment. Kept on the payment row rather than derived from
-- MAX(outbox_event.payment_seq): the retention purge deletes old SENT events, and a later event of
-- an old payment (e.g. a PaymentExceptionRecorded from reconciliation) must still be numbered
-- above every event already published. Incrementing it takes the payment's row lock, which every
-- writer of a payment event holds anyway, so one payment's numbers follow its commit order.
ALTER TABLE payment_order ADD COLUMN last_event_seq INT NOT NULL DEFAULT 0;

-- 1 for the payment's first event (PaymentCreated), then 2, 3, ... without gaps among the rows
-- written. Written at insert time in the same transaction as the event; never changed after.
ALTER TABLE outbox_event ADD COLUMN payment_seq INT NOT NULL DEFAULT 0;

-- Number the events already there in their write order (seq), and carry each payment's count.
-- Events purged before this migration are not counted: they were published without the header.
-- [jooq ignore start]
UPDATE outbox_event o
  JOIN (SELECT event_id,
               ROW_NUMBER() OVER (PARTITION BY aggregate_type, aggregate_id ORDER BY seq) AS n
          FROM outbox_event) numbered ON numbered.event_id = o.event_id
   SET o.payment_seq = numbered.n;
UPDATE payment_order p
   SET p.last_event_seq = (SELECT COALESCE(MAX(o.payment_seq), 0)
                             FROM outbox_event o
                            WHERE o.aggregate_type = 'payment'
                              AND o.aggregate_id = p.payment_id);
-- [jooq ignore stop]

-- From here on the writer always sets it: an insert without it fails instead of writing 0.
ALTER TABLE outbox_event ALTER COLUMN payment_seq DROP DEFAULT;

-- A number is issued once per payment; a second writer that somehow skipped the row lock fails.
ALTER TABLE outbox_event
  ADD CONSTRAINT uk_outbox_payment_seq UNIQUE (aggregate_type, aggregate_id, payment_seq);
