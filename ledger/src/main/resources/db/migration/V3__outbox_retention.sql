-- Outbox retention and on-call statistics. Portable between MySQL 8 and MariaDB 10.11.
-- (V2 belongs to the operator features; this file only adds an index.)

-- Serves the retention purge: DELETE ... WHERE status = 'SENT' AND sent_at < NOW(6) - retention
-- ORDER BY sent_at, event_id LIMIT n reads only the rows it deletes, oldest first; it is also the
-- smallest index led by status, so the per-status row count scans it instead of the table.
CREATE INDEX ix_outbox_retention ON outbox_event (status, sent_at);
