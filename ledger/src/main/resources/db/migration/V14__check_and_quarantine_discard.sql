-- payrelay check lists every open exception past its age (issue 27): served by this index
-- instead of a scan of every exception ever recorded. Portable between MySQL 8 and MariaDB 10.11.
CREATE INDEX ix_payment_exception_open ON payment_exception (status, created_at, id);

-- Messages an operator discarded from a consumer's quarantine queue: the broker forgets a message
-- once it is acked, so this row is what remains of it (never a silent deletion). Written before
-- the ack; see QuarantineDiscards.
CREATE TABLE quarantine_discard (
  id                 BIGINT         NOT NULL AUTO_INCREMENT,
  consumer_name      VARCHAR(64)    NOT NULL,
  -- The quarantine entry id the operator addressed (x-payrelay-quarantine-entry, or derived).
  entry_id           VARCHAR(64)    NOT NULL,
  -- The AMQP message_id; NULL for a message that had none.
  event_id           VARCHAR(64)    NULL,
  event_type         VARCHAR(64)    NULL,
  routing_key        VARCHAR(255)   NULL,
  quarantine_reason  VARCHAR(32)    NULL,
  detail             VARCHAR(1000)  NULL,
  quarantined_at     VARCHAR(40)    NULL,
  body               MEDIUMBLOB     NOT NULL,
  body_sha256        CHAR(64)       NOT NULL,
  status             VARCHAR(16)    NOT NULL,
  reason             VARCHAR(1000)  NOT NULL,
  operator_name      VARCHAR(128)   NOT NULL,
  audit_id           BIGINT         NOT NULL,
  discarded_at       DATETIME(6)    NOT NULL,
  PRIMARY KEY (id)
) DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
CREATE INDEX ix_quarantine_discard_entry ON quarantine_discard (consumer_name, entry_id);
