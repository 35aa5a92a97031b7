-- The business-fact keys of outbox rows the retention purge removed (issue 25 row 10). The purge
-- copies a SENT row's (aggregate_type, aggregate_id, event_type, fact_key) here in the transaction
-- that deletes it, and the outbox writer inserts an event only when its fact is neither in
-- outbox_event (uk_outbox_fact) nor here: one event per business fact (DESIGN invariant 4) outlives
-- the retention of the rows that carried it. Rows here are small and never purged.
CREATE TABLE outbox_fact_purged (
  aggregate_type   VARCHAR(32)   NOT NULL,
  aggregate_id     VARCHAR(64)   NOT NULL,
  event_type       VARCHAR(64)   NOT NULL,
  fact_key         VARCHAR(128)  NOT NULL,
  event_id         CHAR(36)      NOT NULL,
  purged_at        DATETIME(6)   NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  PRIMARY KEY (aggregate_type, aggregate_id, event_type, fact_key)
) DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
