-- One owner per background job (expiry sweep, grant repair) across all workers. Portable between
-- MySQL 8 and MariaDB 10.11.

-- A job runs on whichever worker holds its lease: claimed with a conditional UPDATE against the
-- database clock (DESIGN invariant 5), renewed by the owner every pass, taken over after
-- lease_until when the owner died. cursor_value is where the last pass stopped, so the next pass,
-- on any worker, continues after it (fair paging: the oldest rows never starve the rest).
CREATE TABLE job_lease (
  job_name      VARCHAR(64)   NOT NULL,
  lease_owner   VARCHAR(128)  NULL,
  lease_until   DATETIME(6)   NULL,
  cursor_value  VARCHAR(255)  NULL,
  updated_at    DATETIME(6)   NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  PRIMARY KEY (job_name)
) DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Serves the grant repair's scan of PAID payments by paid_at.
CREATE INDEX ix_payment_order_status_paid ON payment_order (status, paid_at, payment_id);
-- Serves the expiry sweep's keyset paging of PENDING payments by deadline.
CREATE INDEX ix_payment_order_status_expires ON payment_order (status, expires_at, payment_id);
