-- Operator actions answer a repeat with their first result (DESIGN invariant 11). Portable between
-- MySQL 8 and MariaDB 10.11.

-- The action's idempotency key, computed by the payment's workflow from its id, the run's original
-- run id and the operator signal's sequence number in that run: an activity retried after its
-- transaction committed finds its row here and returns the stored result instead of acting again.
-- NULL for audit rows written outside a workflow (the admin API's own refusals); NULLs do not
-- collide in a unique index on either database.
ALTER TABLE operator_action ADD COLUMN action_key VARCHAR(200) NULL;
-- The rest of the result a repeat must return, written with the effect in one transaction.
ALTER TABLE operator_action ADD COLUMN payment_status VARCHAR(16) NULL;
ALTER TABLE operator_action ADD COLUMN event_id CHAR(36) NULL;
ALTER TABLE operator_action ADD COLUMN event_type VARCHAR(64) NULL;
ALTER TABLE operator_action ADD COLUMN event_seq BIGINT NULL;
CREATE UNIQUE INDEX uk_operator_action_key ON operator_action (action_key);
