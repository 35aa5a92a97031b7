-- payrelay schema, first version. The single source of truth: jOOQ classes are generated from
-- this file at build time. Portable between MySQL 8 and MariaDB 10.11 (no engine- or
-- vendor-only syntax); times are DATETIME(6) in UTC written from the database clock (NOW(6)).
-- Every table compares text byte for byte (utf8mb4_bin): ids, idempotency keys and channel
-- transaction ids are case- and accent-sensitive, as the systems that issue them are.

-- One payment attempt for an order. Money is amount_minor (ISO 4217 minor units) + currency.
CREATE TABLE payment_order (
  payment_id       VARCHAR(64)  NOT NULL,
  tenant_id        VARCHAR(64)  NOT NULL,
  order_id         VARCHAR(128) NOT NULL,
  user_id          VARCHAR(128) NOT NULL,
  channel          VARCHAR(32)  NOT NULL,
  merchant_id      VARCHAR(64)  NOT NULL,
  amount_minor     BIGINT       NOT NULL,
  currency         CHAR(3)      NOT NULL,
  status           VARCHAR(16)  NOT NULL,
  channel_txn_id   VARCHAR(128) NULL,
  idempotency_key  VARCHAR(128) NULL,
  request_hash     CHAR(64)     NULL,
  paid_at          DATETIME(6)  NULL,
  expires_at       DATETIME(6)  NOT NULL,
  version          INT          NOT NULL DEFAULT 0,
  created_at       DATETIME(6)  NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  updated_at       DATETIME(6)  NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  PRIMARY KEY (payment_id),
  -- A channel transaction pays exactly one payment (DESIGN invariant 4).
  CONSTRAINT uk_payment_channel_txn UNIQUE (channel, channel_txn_id),
  -- A retried create with the same Idempotency-Key returns the same payment.
  CONSTRAINT uk_payment_idempotency UNIQUE (tenant_id, idempotency_key)
) DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
CREATE INDEX ix_payment_order_order ON payment_order (tenant_id, order_id);

-- What a payment buys: the courses to unlock once it is PAID.
CREATE TABLE purchase_item (
  payment_id  VARCHAR(64)  NOT NULL,
  course_id   VARCHAR(128) NOT NULL,
  PRIMARY KEY (payment_id, course_id),
  CONSTRAINT fk_purchase_item_payment FOREIGN KEY (payment_id) REFERENCES payment_order (payment_id)
) DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Transactional outbox: written in the same transaction as the state change it announces.
CREATE TABLE outbox_event (
  event_id         CHAR(36)      NOT NULL,
  seq              BIGINT        NOT NULL AUTO_INCREMENT,
  aggregate_type   VARCHAR(32)   NOT NULL,
  aggregate_id     VARCHAR(64)   NOT NULL,
  event_type       VARCHAR(64)   NOT NULL,
  -- Distinguishes repeatable facts of one type; '' for facts that happen once per aggregate.
  fact_key         VARCHAR(128)  NOT NULL DEFAULT '',
  routing_key      VARCHAR(128)  NOT NULL,
  payload_version  INT           NOT NULL,
  -- Exact JSON bytes to publish (text, so MySQL's JSON normalisation never reorders them).
  payload          MEDIUMTEXT    NOT NULL,
  status           VARCHAR(16)   NOT NULL,
  attempts         INT           NOT NULL DEFAULT 0,
  next_attempt_at  DATETIME(6)   NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  lease_owner      VARCHAR(128)  NULL,
  lease_token      CHAR(36)      NULL,
  lease_until      DATETIME(6)   NULL,
  last_error       VARCHAR(2000) NULL,
  created_at       DATETIME(6)   NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  updated_at       DATETIME(6)   NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  dispatched_at    DATETIME(6)   NULL,
  sent_at          DATETIME(6)   NULL,
  PRIMARY KEY (event_id),
  CONSTRAINT uk_outbox_seq UNIQUE (seq),
  -- One event per business fact (DESIGN invariant 4): a replay is never a new event.
  CONSTRAINT uk_outbox_fact UNIQUE (aggregate_type, aggregate_id, event_type, fact_key)
) DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
-- Serves the claim: WHERE status = 'PENDING' AND next_attempt_at <= NOW(6)
-- ORDER BY next_attempt_at, seq LIMIT n FOR UPDATE SKIP LOCKED, reading only the rows it locks.
CREATE INDEX ix_outbox_claim ON outbox_event (status, next_attempt_at, seq);
CREATE INDEX ix_outbox_aggregate ON outbox_event (aggregate_id, seq);

-- Every callback that reached us, stored before it is believed, with what became of it.
CREATE TABLE webhook_inbox (
  id                  BIGINT        NOT NULL AUTO_INCREMENT,
  channel             VARCHAR(32)   NOT NULL,
  received_at         DATETIME(6)   NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  remote_addr         VARCHAR(64)   NULL,
  headers             TEXT          NOT NULL,
  raw_body            MEDIUMBLOB    NOT NULL,
  notification_id     VARCHAR(128)  NULL,
  payment_id          VARCHAR(64)   NULL,
  signature_valid     BOOLEAN       NULL,
  outcome             VARCHAR(32)   NOT NULL,
  outcome_detail      VARCHAR(2000) NULL,
  http_status         INT           NULL,
  processed_at        DATETIME(6)   NULL,
  PRIMARY KEY (id)
) DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
CREATE INDEX ix_webhook_inbox_payment ON webhook_inbox (payment_id);
CREATE INDEX ix_webhook_inbox_notification ON webhook_inbox (channel, notification_id);

-- A verified callback that disagrees with our records: kept for review, never applied.
CREATE TABLE payment_exception (
  id                BIGINT        NOT NULL AUTO_INCREMENT,
  payment_id        VARCHAR(64)   NOT NULL,
  kind              VARCHAR(32)   NOT NULL,
  -- kind:payment:channel transaction: a replayed disagreeing callback is one exception, not many.
  dedupe_key        VARCHAR(255)  NOT NULL,
  details           TEXT          NOT NULL,
  status            VARCHAR(16)   NOT NULL,
  webhook_inbox_id  BIGINT        NULL,
  created_at        DATETIME(6)   NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  resolved_at       DATETIME(6)   NULL,
  PRIMARY KEY (id),
  CONSTRAINT uk_payment_exception_dedupe UNIQUE (dedupe_key)
) DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
CREATE INDEX ix_payment_exception_payment ON payment_exception (payment_id, status);

-- Granted access. The unique business key makes a repeated grant a no-op.
CREATE TABLE entitlement (
  id           BIGINT        NOT NULL AUTO_INCREMENT,
  user_id      VARCHAR(128)  NOT NULL,
  course_id    VARCHAR(128)  NOT NULL,
  purchase_id  VARCHAR(64)   NOT NULL,
  granted_at   DATETIME(6)   NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  PRIMARY KEY (id),
  CONSTRAINT uk_entitlement_grant UNIQUE (user_id, course_id, purchase_id)
) DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
CREATE INDEX ix_entitlement_purchase ON entitlement (purchase_id);
