#!/usr/bin/env bash
# One reproducible `payrelay bench` run: starts a fresh payrelay, benchmarks it, stops it.
#
# Usage: deploy/bench/run.sh dev|split|api LABEL [bench arguments...]
#   dev    one `payrelay dev` process (API, worker, sandbox; it starts its own Temporal dev server)
#   split  a Temporal dev server started here with the flags payrelay's TemporalDevServer uses,
#          then `payrelay migrate`, and separate `payrelay sandbox`, `payrelay worker`, `payrelay api`
#   api    as split without the worker: ingestion alone (callbacks are taken, nothing is delivered;
#          pass a short --drain-seconds, and read the callback figures: every message is "missing")
#   e.g.   deploy/bench/run.sh split c16 --warmup 300 --payments 1500 --callers 16 --baselines
#
# Each run gets a fresh database bench_<label>_<timestamp>, a fresh data directory, the exchange
# payrelay.bench.<label> with its own queues (deleted afterwards), PAYRELAY_QUERY_GRACE=1h
# and an API key of its own. Results go to $PAYRELAY_BENCH_DIR (default .bench)/<label>-<timestamp>/:
# <label>.json (bench --out), bench.log and logs/ (each process's output). Every process started
# here is stopped at the end, on error and on Ctrl-C.
#
# BENCH_WORKERS=N (1 to 8, default 1) runs N `payrelay worker` processes in split mode, each its own
# lease owner (bench-<label>, bench-<label>-2, ...), all counted as payrelay's worker CPU.
# Uses the built jar dist/target/payrelay.jar (./mvnw -B -pl dist -am package -DskipTests), or
# BENCH_JAR (not PAYRELAY_: payrelay refuses settings it does not know), e.g. a copy, so that a
# rebuild during a long run does not replace the jar under it.
# Ports (refused when already in use, so a run never borrows another payrelay's Temporal):
# PAYRELAY_API_PORT (8080), PAYRELAY_SANDBOX_PORT (8090), PAYRELAY_TEMPORAL_PORT (7233),
# PAYRELAY_TEMPORAL_UI_PORT (8233). Every JVM here runs as ./payrelay runs its command
# (deploy/local/jvm.sh: PAYRELAY_HEAP, PAYRELAY_JAVA_OPTS), the bench's with the compiler of the
# process it measures (bench_jvm); PAYRELAY_SKIP_SETUP=1 skips deploy/local/setup.sh.
# PAYRELAY_BENCH_JFR=1 records each measured process (dev, or api and worker) with Java Flight
# Recorder's "profile" settings into <run dir>/<process>.jfr (read it with `jfr print` or JDK
# Mission Control); the recorder's own cost is then in the figures.
set -euo pipefail
cd "$(dirname "$0")/../.."

JAR=${BENCH_JAR:-dist/target/payrelay.jar}

usage() {
  sed -n '4,10p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
log() { echo "bench-run: $*"; }
die() { echo "bench-run: $*" >&2; exit 1; }

(( $# >= 2 )) || usage
MODE="$1"
LABEL="$2"
shift 2
[[ "$MODE" == dev || "$MODE" == split || "$MODE" == api ]] || usage
WORKERS="${BENCH_WORKERS:-1}"
[[ "$WORKERS" =~ ^[1-8]$ ]] || die "BENCH_WORKERS must be 1 to 8 (split mode's workers); got '$WORKERS'"
[[ "$WORKERS" == 1 || "$MODE" == split ]] || die "BENCH_WORKERS=$WORKERS needs split mode"
[[ "$LABEL" =~ ^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$ ]] ||
  die "LABEL must be 1 to 40 letters, digits, _ or - (not first); got '$LABEL'"

# shellcheck source=deploy/local/jvm.sh
source deploy/local/jvm.sh
pick_java
[[ -f "$JAR" ]] || die "$JAR is missing; build it: ./mvnw -B -pl dist -am package -DskipTests"
if [[ "${PAYRELAY_SKIP_SETUP:-}" != 1 ]]; then
  eval "$(deploy/local/setup.sh)"
fi
JVM=("${PAYRELAY_JVM[@]}" -jar "$JAR")

# Runs a payrelay process named $1 (the name of its flight recording) with the arguments
# $2...; exec, so that `payrelay_process ... &` leaves the JVM's own pid in $!. Its JVM flags are
# the launcher's for its command ($2: the api's compiler differs, deploy/local/jvm.sh).
payrelay_process() {
  local name="$1" flags=()
  shift
  [[ "${PAYRELAY_BENCH_JFR:-}" == 1 ]] &&
    flags=("-XX:StartFlightRecording=filename=$RUN_DIR/$name.jfr,settings=profile,dumponexit=true")
  payrelay_jvm "$1"
  exec "${PAYRELAY_JVM[@]}" "${flags[@]}" -jar "$JAR" "$@"
}

# The bench's own JVM runs the compiler of the process it measures against its baselines (the api's
# in api mode, whose exact-statements baseline replays the callback's JDBC work in this JVM; dev's
# and the worker's otherwise, whose same-shape workflows run here), so no baseline is slower or
# faster for a compiler payrelay's process does not run.
bench_jvm() {
  if [[ "$MODE" == api ]]; then payrelay_jvm api; else payrelay_jvm bench; fi
  BENCH_JVM=("${PAYRELAY_JVM[@]}" -jar "$JAR")
}

API_PORT="${PAYRELAY_API_PORT:-8080}"
SANDBOX_PORT="${PAYRELAY_SANDBOX_PORT:-8090}"
TEMPORAL_PORT="${PAYRELAY_TEMPORAL_PORT:-7233}"
UI_PORT="${PAYRELAY_TEMPORAL_UI_PORT:-8233}"
TEMPORAL_CLI="${PAYRELAY_TEMPORAL_CLI:-temporal}"

listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for port in "$API_PORT" "$SANDBOX_PORT" "$TEMPORAL_PORT" "$UI_PORT"; do
  if listening "$port"; then
    die "port $port is in use (another payrelay or Temporal?); wait for it or move this run with PAYRELAY_API_PORT, PAYRELAY_SANDBOX_PORT, PAYRELAY_TEMPORAL_PORT, PAYRELAY_TEMPORAL_UI_PORT"
  fi
done

STAMP="$(date -u +%Y%m%dT%H%M%SZ)"
SAFE_LABEL="$(tr 'A-Z-' 'a-z_' <<<"$LABEL")"
DB_NAME="bench_${SAFE_LABEL}_${STAMP,,}"
RUN_DIR="${PAYRELAY_BENCH_DIR:-.bench}/$LABEL-$STAMP"
mkdir -p "$RUN_DIR/logs" "$RUN_DIR/data"
RUN_DIR="$(cd "$RUN_DIR" && pwd)"
LOGS="$RUN_DIR/logs"
EXCHANGE="payrelay.bench.$LABEL"
DB_SERVER="${PAYRELAY_BENCH_DB_SERVER:-jdbc:mysql://127.0.0.1:3306/}"

# What every payrelay process here (and the bench) runs with.
export PAYRELAY_PROFILE=dev
export PAYRELAY_DB_URL="${DB_SERVER%/}/$DB_NAME"
export PAYRELAY_DATA_DIR="$RUN_DIR/data"
# Without a worker nothing declares payrelay's exchange, and the bench's queue must bind to one
# that exists: the broker's own topic exchange (the api alone publishes nothing to it).
[[ "$MODE" == api ]] && EXCHANGE=amq.topic
export PAYRELAY_AMQP_EXCHANGE="$EXCHANGE"
export PAYRELAY_AMQP_QUEUES="$EXCHANGE.payment-events=payment.#"
export PAYRELAY_CONSUMER_QUEUE_PREFIX="$EXCHANGE"
export PAYRELAY_QUERY_GRACE=1h
export PAYRELAY_API_HOST=127.0.0.1 PAYRELAY_API_PORT="$API_PORT"
export PAYRELAY_PUBLIC_URL="http://127.0.0.1:$API_PORT"
export PAYRELAY_SANDBOX_BIND=127.0.0.1 PAYRELAY_SANDBOX_PORT="$SANDBOX_PORT"
export PAYRELAY_SANDBOX_URL="http://127.0.0.1:$SANDBOX_PORT"
export PAYRELAY_TEMPORAL_PORT="$TEMPORAL_PORT" PAYRELAY_TEMPORAL_UI_PORT="$UI_PORT"
unset PAYRELAY_API_KEYS_FILE PAYRELAY_API_KEY_FILE PAYRELAY_ADMIN_PORT PAYRELAY_TEMPORAL_ADDRESS

PIDS=()      # started here, in start order
WORKER_ARGS=() # the bench's --worker-pid, split mode only
NAMES=()
stop_all() {
  local i pid deadline
  trap - EXIT INT TERM
  for (( i = ${#PIDS[@]} - 1; i >= 0; i-- )); do
    pid="${PIDS[i]}"
    kill -0 "$pid" 2>/dev/null || continue
    log "stopping ${NAMES[i]} (pid $pid)"
    kill -TERM "$pid" 2>/dev/null || true
    deadline=$(( SECONDS + 20 ))
    while kill -0 "$pid" 2>/dev/null && (( SECONDS < deadline )); do sleep 0.2; done
    kill -0 "$pid" 2>/dev/null && { log "${NAMES[i]} still up after 20 s: SIGKILL"; kill -KILL "$pid" 2>/dev/null || true; }
  done
  # A dev server that `payrelay dev` was still launching when we were stopped has not been seen
  # yet; it is the only one using this run's data directory.
  if pkill -TERM -f -- "--db-filename $PAYRELAY_DATA_DIR/" 2>/dev/null; then
    deadline=$(( SECONDS + 20 ))
    while pgrep -f -- "--db-filename $PAYRELAY_DATA_DIR/" >/dev/null && (( SECONDS < deadline )); do
      sleep 0.2
    done
  fi
  # The run's queues hold only this run's messages.
  if command -v rabbitmqctl >/dev/null 2>&1; then
    rabbitmqctl -q --no-table-headers list_queues name 2>/dev/null |
      awk -v prefix="$EXCHANGE." 'index($0, prefix) == 1' | while read -r q; do
      rabbitmqctl -q delete_queue "$q" </dev/null >/dev/null 2>&1 || true
    done
  fi
}
on_signal() { log "interrupted"; stop_all; exit 130; }
trap stop_all EXIT
trap on_signal INT TERM

started() { PIDS+=("$1"); NAMES+=("$2"); log "$2 started, pid $1, log $LOGS/$2.log"; }

# Waits until $1 answers (a command), or fails naming the log; stops early if pid $2 exited.
await() {
  local what="$1" pid="$2" name="$3" limit="$4"
  local deadline=$(( SECONDS + limit ))
  until eval "$what"; do
    kill -0 "$pid" 2>/dev/null || die "$name exited before it was ready; see $LOGS/$name.log"
    (( SECONDS < deadline )) || die "$name not ready within ${limit} s; see $LOGS/$name.log"
    sleep 0.5
  done
}

echo "commit     $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')"
echo "jvm        $("$JAVA_HOME/bin/java" -version 2>&1 | head -1) ($JAVA_HOME)"
echo "jvm flags  ${PAYRELAY_JVM[*]:1}$([[ "${PAYRELAY_BENCH_JFR:-}" == 1 ]] && echo ' (+ a flight recording each)')"
[[ -n "${PAYRELAY_JAVA_OPTS+set}" ]] ||
  echo "           api: the same without $(compiler_default bench) (deploy/local/jvm.sh)$([[ "$MODE" == api ]] && echo ', and so the bench')"
echo "mode       $MODE$([[ "$MODE" == split ]] && echo " ($WORKERS worker(s))"), label $LABEL"
echo "database   $PAYRELAY_DB_URL"
echo "exchange   $EXCHANGE"
echo "ports      api $API_PORT, sandbox $SANDBOX_PORT, temporal $TEMPORAL_PORT (ui $UI_PORT)"
echo "bench      $*"

# One key for this run: the API accepts it, the bench creates payments with it.
KEY_OUT="$("${JVM[@]}" apikey --role operate --operator bench --tenants '*')"
# The key is the line after "key", its configuration line the one after "configuration line"
# (anything a JVM flag printed around them is skipped).
export PAYRELAY_API_KEY="$(awk 'found { print $1; exit } /^key /{ found = 1 }' <<<"$KEY_OUT")"
export PAYRELAY_API_KEYS="$(awk 'found { sub(/^ +/, ""); print; exit } /^configuration line/{ found = 1 }' <<<"$KEY_OUT")"
[[ "$PAYRELAY_API_KEY" == prk_* && -n "$PAYRELAY_API_KEYS" ]] ||
  die "could not make an API key with '${JVM[*]} apikey' (a JVM flag printing to stdout?)"

if [[ "$MODE" == split || "$MODE" == api ]]; then
  # As TemporalDevServer.command: its own session, 127.0.0.1, SQLite in the data directory
  # (write-ahead log, TemporalDevServer.SQLITE_PRAGMAS),
  # payrelay's search attributes registered at launch (PaymentSearchAttributes.ALL).
  setsid "$TEMPORAL_CLI" server start-dev --ip 127.0.0.1 --port "$TEMPORAL_PORT" \
    --ui-ip 127.0.0.1 --ui-port "$UI_PORT" --db-filename "$PAYRELAY_DATA_DIR/temporal.db" \
    --sqlite-pragma journal_mode=wal --sqlite-pragma synchronous=normal --log-level warn \
    --search-attribute PaymentId=Keyword --search-attribute OrderId=Keyword \
    --search-attribute TenantId=Keyword --search-attribute Channel=Keyword \
    --search-attribute PaymentState=Keyword --search-attribute PaymentAttention=Keyword \
    --search-attribute RefundId=Keyword --search-attribute RefundState=Keyword \
    >"$LOGS/temporal.log" 2>&1 &
  TEMPORAL_PID=$!
  started "$TEMPORAL_PID" temporal
  await "listening $TEMPORAL_PORT" "$TEMPORAL_PID" temporal 90
  export PAYRELAY_TEMPORAL_ADDRESS="127.0.0.1:$TEMPORAL_PORT"
  "${JVM[@]}" migrate >"$LOGS/migrate.log" 2>&1 || die "payrelay migrate failed; see $LOGS/migrate.log"
  "${JVM[@]}" sandbox >"$LOGS/sandbox.log" 2>&1 &
  SANDBOX_PID=$!
  started "$SANDBOX_PID" sandbox
  WORKER_PIDS=()
  # Sets name and owner of worker $1: the first keeps a one-worker run's, each owns its leases.
  worker_names() {
    name=worker owner="bench-$LABEL"
    if (( $1 > 1 )); then name="worker$1" owner="bench-$LABEL-$1"; fi
  }
  if [[ "$MODE" == split ]]; then
    for (( w = 1; w <= WORKERS; w++ )); do
      worker_names "$w"
      payrelay_process "$name" worker --owner "$owner" >"$LOGS/$name.log" 2>&1 &
      WORKER_PIDS+=($!)
      started "$!" "$name"
    done
  fi
  payrelay_process api api >"$LOGS/api.log" 2>&1 &
  API_PID=$!
  started "$API_PID" api
  await "listening $SANDBOX_PORT" "$SANDBOX_PID" sandbox 120
  if [[ "$MODE" == split ]]; then
    for (( w = 1; w <= WORKERS; w++ )); do
      worker_names "$w"
      await "grep -q 'worker $owner polling' '$LOGS/$name.log'" "${WORKER_PIDS[w - 1]}" "$name" 120
    done
    PAYRELAY_PIDS="$(IFS=,; echo "$API_PID,${WORKER_PIDS[*]}")"
    WORKER_ARGS=(--worker-pid "$(IFS=,; echo "${WORKER_PIDS[*]}")")
  else
    PAYRELAY_PIDS="$API_PID"
  fi
else
  payrelay_process dev dev >"$LOGS/dev.log" 2>&1 &
  API_PID=$!
  started "$API_PID" dev
  PAYRELAY_PIDS="$API_PID"
fi
await "curl -fs -o /dev/null http://127.0.0.1:$API_PORT/health/ready" "$API_PID" "${NAMES[-1]}" 180
if [[ "$MODE" == dev ]]; then
  TEMPORAL_PID="$(pgrep -P "$API_PID" -f 'server start-dev' | head -1 || true)"
  [[ -n "$TEMPORAL_PID" ]] || die "payrelay dev started no Temporal dev server; see $LOGS/dev.log"
  # dev stops it itself; also listed here so an unclean end of dev does not leave it running.
  PIDS=("$TEMPORAL_PID" "${PIDS[@]}")
  NAMES=(temporal "${NAMES[@]}")
fi
log "ready: api http://127.0.0.1:$API_PORT, payrelay pid(s) $PAYRELAY_PIDS, temporal pid $TEMPORAL_PID"

# In the background so a signal reaches the trap at once rather than after the bench ends.
bench_jvm
"${BENCH_JVM[@]}" bench "$@" --out "$RUN_DIR/$LABEL.json" \
  --payrelay-pid "$PAYRELAY_PIDS" --temporal-pid "$TEMPORAL_PID" "${WORKER_ARGS[@]}" > >(tee "$RUN_DIR/bench.log") 2>&1 &
BENCH_PID=$!
PIDS+=("$BENCH_PID")
NAMES+=(bench)
BENCH_EXIT=0
wait "$BENCH_PID" || BENCH_EXIT=$?
stop_all
echo "result     $RUN_DIR/$LABEL.json (bench exit $BENCH_EXIT: 0 = nothing missing or duplicated)"
echo "output     $RUN_DIR/bench.log"
echo "logs       $LOGS/"
echo "database   $DB_NAME kept for inspection (DROP DATABASE $DB_NAME when done)"
exit "$BENCH_EXIT"
