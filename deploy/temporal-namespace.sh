#!/bin/sh
# Creates the namespace and registers payrelay's search attributes (all Keyword). Idempotent.
set -eu
temporal operator namespace describe -n "$NAMESPACE" >/dev/null 2>&1 \
  || temporal operator namespace create -n "$NAMESPACE" --retention 30d
for name in PaymentId OrderId TenantId Channel PaymentState; do
  temporal operator search-attribute create -n "$NAMESPACE" --name "$name" --type Keyword || true
done
temporal operator search-attribute list -n "$NAMESPACE"
