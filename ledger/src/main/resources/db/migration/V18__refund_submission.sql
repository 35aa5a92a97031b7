-- The refund workflow's submissions (issue 28 item 2): one row per time payrelay sends a refund to
-- its channel, written REFUND_ID + ATTEMPT first, in the transaction that moves the refund to
-- UNKNOWN (RefundTransition.LOSE_TRACK), before the channel is called. A retried activity or a
-- worker that crashed after the call finds the row and never calls the channel again: it answers
-- the stored result, or UNKNOWN while result is NULL (the call's answer was never recorded), and
-- the workflow then queries the refund by our refund number. attempt 1 is the first submission;
-- attempt 2 the one resubmission a NOT_FOUND answer to a query allows, with the same refund_no.
-- result: SUCCEEDED, PENDING, FAILED or UNKNOWN (a timeout, 5xx or unreadable answer), NULL until
-- recorded. Portable between MySQL 8 and MariaDB 10.11.
CREATE TABLE refund_submission (
  refund_id          VARCHAR(64)    NOT NULL,
  attempt            INT            NOT NULL,
  result             VARCHAR(16)    NULL,
  channel_refund_id  VARCHAR(128)   NULL,
  detail             VARCHAR(2000)  NULL,
  created_at         DATETIME(6)    NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  answered_at        DATETIME(6)    NULL,
  -- One submission per refund and attempt, the submit-once guard. Writers hold the refund's row
  -- lock (payment, then refund, as every refund transaction), so two attempts never race to it.
  PRIMARY KEY (refund_id, attempt),
  CONSTRAINT fk_refund_submission_refund FOREIGN KEY (refund_id) REFERENCES refund (refund_id)
) DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
