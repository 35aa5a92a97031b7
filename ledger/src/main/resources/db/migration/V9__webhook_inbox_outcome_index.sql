-- Serves payrelay check's CALLBACK_NOT_DECIDED: the inbox rows still RECEIVED (stored, never
-- decided, because the process stopped or lost the database mid-request) within an age window, as
-- one index range instead of a scan of every callback ever received. Portable between MySQL 8 and
-- MariaDB 10.11.
CREATE INDEX ix_webhook_inbox_outcome ON webhook_inbox (outcome, received_at);
