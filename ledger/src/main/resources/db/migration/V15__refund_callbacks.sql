-- Refund callbacks (issue 28 item 3) and the refund checks of item 7. Portable between MySQL 8 and
-- MariaDB 10.11.

-- Who started a refund: API (requested through POST /v1/payments/{id}/refunds, with our refund
-- number) or CHANNEL (made in the channel's dashboard and first learnt of from its report; its
-- refund_no is minted by us and never sent). Existing rows were all requested through the API.
ALTER TABLE refund ADD COLUMN origin VARCHAR(16) NOT NULL DEFAULT 'API';

-- A channel refund is applied once, however many notifications report it: the channel's refund id
-- is unique within its payment, and so within its channel (a payment belongs to one channel; the
-- channels' ids, e.g. Stripe re_... and WeChat Pay refund_id, are not unique across channels).
-- Rows whose channel id is not known yet (NULL) do not collide.
CREATE UNIQUE INDEX uk_refund_channel_refund ON refund (payment_id, channel_refund_id);

-- payrelay check's refund checks list refunds by state and age (REFUND_UNKNOWN_TOO_LONG: UNKNOWN or
-- SUBMITTED since updated_at; REFUND_WITHOUT_EVENT: SUCCEEDED, final, so updated_at is when it
-- succeeded): one index range each instead of a scan of every refund.
CREATE INDEX ix_refund_state ON refund (state, updated_at);
