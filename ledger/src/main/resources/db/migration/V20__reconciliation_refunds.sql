-- Reconciliation covers refunds (issue 28 item 5). Portable between MySQL 8 and MariaDB 10.11.

-- The refund of ours a refund gap is about (REFUND_NOT_CONFIRMED, REFUND_MISMATCH,
-- REFUND_MISSING_FROM_STATEMENT): its repair queries the channel by that refund's number, which a
-- refund whose submit answer was lost has not bound to the channel's refund id (channel_txn_id)
-- yet. NULL for payment gaps and for a refund line naming no refund of ours (UNRECORDED_REFUND).
ALTER TABLE reconciliation_item ADD COLUMN refund_id VARCHAR(64) NULL;

-- Serves our side of refunds: the refunds SUCCEEDED in a statement day's window.
CREATE INDEX ix_refund_succeeded ON refund (state, succeeded_at);
