-- A refund of a capture other than the one that paid for the purchase (issue 28 item 1, the
-- operator's MARK_FOR_REFUND): a DOUBLE_PAYMENT's second transaction, or money the channel took for
-- a payment we never marked PAID (AMOUNT_MISMATCH, CURRENCY_MISMATCH, PAID_AFTER_CLOSE).
-- channel_txn_id names the channel transaction to refund (ChannelRefundRequest.channelTxnId) and
-- txn_amount_minor what the channel captured in it (ISO 4217 minor units of the refund's currency;
-- WeChat Pay's amount.total). NULL in both: the payment's own transaction
-- (payment_order.channel_txn_id), whose refunds are held against payment_order.amount_minor and
-- move the payment to PARTIALLY_REFUNDED / REFUNDED. A refund with a channel_txn_id is held against
-- its transaction's amount only and leaves the payment's status as it is.
-- Portable between MySQL 8 and MariaDB 10.11.
ALTER TABLE refund ADD COLUMN channel_txn_id VARCHAR(128) NULL;
ALTER TABLE refund ADD COLUMN txn_amount_minor BIGINT NULL;
