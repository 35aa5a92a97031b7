-- The consumer kit's inbox and the reference consumer's table. Portable between MySQL 8 and
-- MariaDB 10.11.

-- One row per (consumer, event) a consumer committed: inserted first in the transaction of the
-- handler's business change, so the row exists exactly when the change does (DESIGN invariant 7).
-- A redelivery hits the primary key; payload_sha256 tells an already-processed duplicate (same
-- bytes) from a conflicting event that reused the id (other bytes), which is quarantined.
CREATE TABLE consumer_inbox (
  consumer_name   VARCHAR(64)  NOT NULL,
  event_id        VARCHAR(64)  NOT NULL,
  payload_sha256  CHAR(64)     NOT NULL,
  processed_at    DATETIME(6)  NOT NULL,
  PRIMARY KEY (consumer_name, event_id)
) DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Serves the retention purge: oldest rows of one consumer first.
CREATE INDEX ix_consumer_inbox_retention ON consumer_inbox (consumer_name, processed_at);

-- The reference consumer's effect: the buyer is told once per payment and template, whichever
-- event (or copy of it) brought the news; the business key makes that so even across event ids.
CREATE TABLE notification (
  id          BIGINT        NOT NULL AUTO_INCREMENT,
  user_id     VARCHAR(128)  NOT NULL,
  payment_id  VARCHAR(64)   NOT NULL,
  template    VARCHAR(64)   NOT NULL,
  event_id    VARCHAR(64)   NOT NULL,
  created_at  DATETIME(6)   NOT NULL,
  PRIMARY KEY (id),
  CONSTRAINT uk_notification_business UNIQUE (user_id, payment_id, template)
) DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
