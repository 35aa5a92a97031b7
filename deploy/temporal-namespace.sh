#!/bin/sh
# Creates the namespace and registers payrelay's search attributes (all Keyword). Idempotent.
# Waits for the frontend and retries each step (a frontend that just opened its port may still
# refuse namespace calls, and a namespace created a moment ago is unknown to it for a few
# seconds), for at most WAIT_SECONDS (default 180) in all; exits non-zero, naming the step, when
# that runs out, so the services that depend on it do not start against a half-made namespace.
set -eu
: "${NAMESPACE:?NAMESPACE must be set}"
wait_seconds="${WAIT_SECONDS:-180}"
deadline=$(( $(date +%s) + wait_seconds ))

# retry <what> <command...>: runs the command until it succeeds or the deadline passes.
retry() {
  what="$1"
  shift
  delay=1
  until "$@"; do
    if [ "$(date +%s)" -ge "$deadline" ]; then
      echo "temporal-namespace: gave up after ${wait_seconds}s: $what" >&2
      exit 1
    fi
    echo "temporal-namespace: $what not done yet; retrying in ${delay}s" >&2
    sleep "$delay"
    [ "$delay" -lt 8 ] && delay=$(( delay * 2 ))
  done
}

ensure_namespace() {
  temporal operator namespace describe -n "$NAMESPACE" >/dev/null 2>&1 \
    || temporal operator namespace create -n "$NAMESPACE" --retention 30d
}

# Succeeds when the attribute is listed, registering it first when it is not.
ensure_attribute() {
  temporal operator search-attribute list -n "$NAMESPACE" 2>/dev/null | grep -qw "$1" \
    || { temporal operator search-attribute create -n "$NAMESPACE" --name "$1" --type Keyword \
         && temporal operator search-attribute list -n "$NAMESPACE" | grep -qw "$1"; }
}

retry "frontend at ${TEMPORAL_ADDRESS:-127.0.0.1:7233} answering" \
  temporal operator cluster health
retry "namespace $NAMESPACE" ensure_namespace
retry "namespace $NAMESPACE known to the frontend" \
  temporal operator namespace describe -n "$NAMESPACE"
for name in PaymentId OrderId TenantId Channel PaymentState PaymentAttention RefundId RefundState; do
  retry "search attribute $name on $NAMESPACE" ensure_attribute "$name"
done
temporal operator search-attribute list -n "$NAMESPACE"
