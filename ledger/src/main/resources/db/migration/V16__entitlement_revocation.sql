-- Entitlements follow the money (issue 28 item 4): a refund that takes back a purchase revokes its
-- grants instead of deleting them, so the grant's unique key (user_id, course_id, purchase_id)
-- keeps refusing a later grant of the same purchase, and the trail keeps who had what and until
-- when (payrelay check's REFUNDED_WITH_LIVE_GRANTS lists fully refunded purchases with a NULL
-- revoked_at). revoked_at is the database clock's NOW(6) of the revocation; revoked_by_refund is the
-- refund.refund_id that took it back (the first one: a revoked row is never revoked again). A
-- course revoked before it was ever granted (a refund that overtook the grant) gets a row whose
-- granted_at equals its revoked_at. Portable between MySQL 8 and MariaDB 10.11.
ALTER TABLE entitlement
  ADD COLUMN revoked_at DATETIME(6) NULL,
  ADD COLUMN revoked_by_refund VARCHAR(64) NULL;
