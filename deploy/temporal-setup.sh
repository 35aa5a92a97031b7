#!/bin/sh
# Creates Temporal's MySQL schemas (default store and visibility). Runs once in admin-tools.
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
