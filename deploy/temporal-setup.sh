#!/bin/sh
# Creates Temporal's MySQL schemas (default store and visibility). Runs once in admin-tools, after
# MySQL is healthy (depends_on in docker-compose.yml); idempotent. The password is SQL_PASSWORD, the
# same PAYRELAY_DB_PASSWORD the compose file gives every service.
set -eu
for db in temporal temporal_visibility; do
  case "$db" in
    temporal) dir=/etc/temporal/schema/mysql/v8/temporal/versioned ;;
    *) dir=/etc/temporal/schema/mysql/v8/visibility/versioned ;;
  esac
  temporal-sql-tool --plugin mysql8 --ep mysql -u root -p 3306 --db "$db" create || true
  temporal-sql-tool --plugin mysql8 --ep mysql -u root -p 3306 --db "$db" setup-schema -v 0.0 || true
  temporal-sql-tool --plugin mysql8 --ep mysql -u root -p 3306 --db "$db" update-schema -d "$dir"
done
