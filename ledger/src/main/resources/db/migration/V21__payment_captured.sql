-- What the channel captured for the payment's own transaction (issue 27): the amount and currency
-- a refund of it is held against (refund cap, "refunded in full", REFUNDED_MORE_THAN_CAPTURED).
-- A confirm sets them to the payment's amount and currency (the confirm moves only a payment whose
-- amount and currency match the channel's); an operator's ACCEPT_AS_PAID of an AMOUNT_MISMATCH,
-- CURRENCY_MISMATCH or PAID_AFTER_CLOSE sets them to the channel's reported amount and currency,
-- which amount_minor/currency (what the buyer was asked to pay) never take. NULL until paid.
-- captured_amount_minor is in ISO 4217 minor units of captured_currency.
-- Portable between MySQL 8 and MariaDB 10.11.
ALTER TABLE payment_order ADD COLUMN captured_amount_minor BIGINT NULL;
ALTER TABLE payment_order ADD COLUMN captured_currency CHAR(3) NULL;

-- Payments paid before this migration: what an accepted exception of their own transaction
-- reported, else their own amount (they were confirmed on a matching amount).
UPDATE payment_order
SET captured_amount_minor = COALESCE(
      (SELECT e.channel_amount_minor FROM payment_exception e
       WHERE e.payment_id = payment_order.payment_id
         AND e.resolution = 'ACCEPT_AS_PAID'
         AND e.channel_txn_id = payment_order.channel_txn_id
         AND e.channel_amount_minor IS NOT NULL
       ORDER BY e.id DESC LIMIT 1),
      amount_minor),
    captured_currency = COALESCE(
      (SELECT e.channel_currency FROM payment_exception e
       WHERE e.payment_id = payment_order.payment_id
         AND e.resolution = 'ACCEPT_AS_PAID'
         AND e.channel_txn_id = payment_order.channel_txn_id
         AND e.channel_currency IS NOT NULL
       ORDER BY e.id DESC LIMIT 1),
      currency)
WHERE paid_at IS NOT NULL;
