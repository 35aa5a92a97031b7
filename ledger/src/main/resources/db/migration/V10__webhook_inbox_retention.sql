-- Retention of the webhook inbox (issue 24). Every row now records the SHA-256 (hex) and length of
-- the body as it was received. A row refused without a verified signature (a 4xx answer) is marked
-- rejected and keeps only the first bytes of its body (PAYRELAY_INBOX_REJECTED_BODY_BYTES), so a
-- flood of unsigned requests stores a bounded number of bytes per request; the worker's purge
-- removes rejected rows after a short time and the others (never RECEIVED ones) after the audit
-- time, walking this index. Rows stored before this migration have no hash and count as decided:
-- they are kept for the audit time. Portable between MySQL 8 and MariaDB 10.11.
ALTER TABLE webhook_inbox
  ADD COLUMN body_sha256 CHAR(64) NULL,
  ADD COLUMN body_bytes INT NULL,
  ADD COLUMN rejected BOOLEAN NOT NULL DEFAULT FALSE;
CREATE INDEX ix_webhook_inbox_retention ON webhook_inbox (rejected, received_at);
