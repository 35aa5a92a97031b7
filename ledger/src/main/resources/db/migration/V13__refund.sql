-- Refunds (issue 28): one row per refund of a payment, created REQUESTED in the transaction that
-- holds the payment's row lock (SELECT ... FOR UPDATE on payment_order) and checks that the refunds
-- not FAILED never add up to more than the captured amount. refund_no is our refund number, minted
-- once with the row and sent to the channel as its idempotency key (Stripe Idempotency-Key, Alipay
-- out_request_no, WeChat Pay out_refund_no: at most 64 characters of [A-Za-z0-9_-|*@]); a
-- resubmission reuses it. state is a dev.payrelay.domain.RefundState, moved only along
-- RefundTransition. Money is amount_minor (ISO 4217 minor units) + the payment's currency.
-- Portable between MySQL 8 and MariaDB 10.11.
CREATE TABLE refund (
  refund_id          VARCHAR(64)    NOT NULL,
  refund_no          VARCHAR(64)    NOT NULL,
  payment_id         VARCHAR(64)    NOT NULL,
  tenant_id          VARCHAR(64)    NOT NULL,
  amount_minor       BIGINT         NOT NULL,
  currency           CHAR(3)        NOT NULL,
  reason             VARCHAR(500)   NOT NULL,
  state              VARCHAR(16)    NOT NULL,
  channel_refund_id  VARCHAR(128)   NULL,
  failure_reason     VARCHAR(2000)  NULL,
  idempotency_key    VARCHAR(128)   NOT NULL,
  request_hash       CHAR(64)       NOT NULL,
  requested_by       VARCHAR(128)   NOT NULL,
  version            INT            NOT NULL DEFAULT 0,
  created_at         DATETIME(6)    NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  updated_at         DATETIME(6)    NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  succeeded_at       DATETIME(6)    NULL,
  PRIMARY KEY (refund_id),
  -- The channel's idempotency key: one refund per number, at every channel.
  CONSTRAINT uk_refund_no UNIQUE (refund_no),
  -- A retried request with the same Idempotency-Key answers the same refund.
  CONSTRAINT uk_refund_idempotency UNIQUE (tenant_id, idempotency_key),
  CONSTRAINT fk_refund_payment FOREIGN KEY (payment_id) REFERENCES payment_order (payment_id)
) DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
-- A payment's refunds: the sum checked under its row lock, and their listing in creation order.
CREATE INDEX ix_refund_payment ON refund (payment_id, created_at);

-- PARTIALLY_REFUNDED (18 characters) is the longest payment status: every column that stores one
-- is widened from 16 to 32.
ALTER TABLE payment_order MODIFY status VARCHAR(32) NOT NULL;
ALTER TABLE reconciliation_item MODIFY our_status VARCHAR(32) NULL;
ALTER TABLE operator_action MODIFY payment_status VARCHAR(32) NULL;
