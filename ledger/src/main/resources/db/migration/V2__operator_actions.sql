-- Operator decisions, audited: every resolution (applied or rejected) is a row written in the
-- same transaction as its effect.
CREATE TABLE operator_action (
  id             BIGINT        NOT NULL AUTO_INCREMENT,
  operator_name  VARCHAR(128)  NOT NULL,
  action         VARCHAR(32)   NOT NULL,
  target_type    VARCHAR(32)   NOT NULL,
  target_id      VARCHAR(64)   NOT NULL,
  reason         VARCHAR(1000) NOT NULL,
  result         VARCHAR(16)   NOT NULL,
  details        VARCHAR(2000) NULL,
  created_at     DATETIME(6)   NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  PRIMARY KEY (id)
) DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
CREATE INDEX ix_operator_action_target ON operator_action (target_type, target_id, created_at);

-- What the channel said, kept structured so an operator's ACCEPT_AS_PAID can apply it exactly.
ALTER TABLE payment_exception ADD COLUMN channel_txn_id VARCHAR(128) NULL;
ALTER TABLE payment_exception ADD COLUMN channel_amount_minor BIGINT NULL;
ALTER TABLE payment_exception ADD COLUMN channel_currency CHAR(3) NULL;
ALTER TABLE payment_exception ADD COLUMN resolution VARCHAR(32) NULL;
ALTER TABLE payment_exception ADD COLUMN resolved_by_action_id BIGINT NULL;
