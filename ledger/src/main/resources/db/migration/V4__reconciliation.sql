-- Daily reconciliation against a channel's statement (DESIGN invariant 9). Portable between
-- MySQL 8 and MariaDB 10.11; times are DATETIME(6) in UTC from the database clock (NOW(6)).

-- One row per channel and statement day, reused by every run of that day: the latest run's
-- status and counts. RUNNING while a run reads and repairs; COMPLETED or FAILED at its end.
CREATE TABLE reconciliation_run (
  id              BIGINT        NOT NULL AUTO_INCREMENT,
  channel         VARCHAR(32)   NOT NULL,
  statement_date  DATE          NOT NULL,
  status          VARCHAR(16)   NOT NULL,
  runs            INT           NOT NULL DEFAULT 1,
  pages_read      INT           NOT NULL DEFAULT 0,
  lines_read      BIGINT        NOT NULL DEFAULT 0,
  last_error      VARCHAR(2000) NULL,
  started_at      DATETIME(6)   NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  finished_at     DATETIME(6)   NULL,
  PRIMARY KEY (id),
  CONSTRAINT uk_reconciliation_run UNIQUE (channel, statement_date)
) DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- One discrepancy between the statement and our tables, with the repair its kind calls for.
-- The unique key makes a re-run of the same day add nothing: a gap found again is the same row.
-- Gaps found by walking our side (a PAID payment the statement lacks) use our transaction id.
CREATE TABLE reconciliation_item (
  id                    BIGINT        NOT NULL AUTO_INCREMENT,
  channel               VARCHAR(32)   NOT NULL,
  statement_date        DATE          NOT NULL,
  kind                  VARCHAR(32)   NOT NULL,
  channel_txn_id        VARCHAR(128)  NOT NULL,
  payment_id            VARCHAR(64)   NULL,
  channel_amount_minor  BIGINT        NULL,
  channel_currency      CHAR(3)       NULL,
  our_amount_minor      BIGINT        NULL,
  our_currency          CHAR(3)       NULL,
  our_status            VARCHAR(16)   NULL,
  repair                VARCHAR(32)   NOT NULL,
  repair_status         VARCHAR(16)   NOT NULL,
  -- The payment_exception recorded for review with it, when there is a payment to attach it to.
  exception_id          BIGINT        NULL,
  -- What the channel's line and our row say, as found.
  details               VARCHAR(2000) NOT NULL,
  -- What the last repair attempt did or why it failed.
  repair_details        VARCHAR(2000) NULL,
  created_at            DATETIME(6)   NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  updated_at            DATETIME(6)   NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  PRIMARY KEY (id),
  CONSTRAINT uk_reconciliation_item UNIQUE (channel, statement_date, kind, channel_txn_id)
) DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
-- Serves "open items of a day" and the per-status summary.
CREATE INDEX ix_reconciliation_item_repair
  ON reconciliation_item (channel, statement_date, repair_status);
-- Serves "was this transaction already seen on another day's statement" for our-side gaps.
CREATE INDEX ix_reconciliation_item_txn ON reconciliation_item (channel, channel_txn_id);
-- Serves our-side gaps: a channel's PAID payments of one UTC day.
CREATE INDEX ix_payment_order_paid ON payment_order (channel, status, paid_at);
