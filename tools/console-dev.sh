#!/usr/bin/env bash
# Runs the built platform (npm run build first) on DATABASE_URL's PostgreSQL, every port counted from BASE_PORT, for
# working on the console: http://127.0.0.1:BASE_PORT/console. The sandbox credentials are printed at start; operators:
#   DATABASE_URL=postgres://postgres@127.0.0.1:5432/DB npm run admin -- operator:create --name NAME --role ADMIN
# usage: tools/console-dev.sh BASE_PORT DB_NAME
set -euo pipefail
base=${1:?BASE_PORT} db=${2:?DB_NAME}
psql -q -h 127.0.0.1 -U postgres -c "CREATE DATABASE \"$db\"" 2>/dev/null || true
export DATABASE_URL="postgres://postgres@127.0.0.1:5432/$db" DATA_DIR="/tmp/console-dev-$db" PORT=$base
export DB_POOL_SIZE_MAX=${DB_POOL_SIZE_MAX:-2} EGRESS_ALLOW_PRIVATE_NETWORKS=${EGRESS_ALLOW_PRIVATE_NETWORKS:-true} LOG_LEVEL=${LOG_LEVEL:-warn}
i=1
for app in IDENTITY ACCOUNTS QUOTING PAYMENTS WEBHOOK_DISPATCHER WALLET_AUTH CARDS AGENTS; do
  export "${app}_RPC_PORT=$((base + i))" "${app}_OPS_PORT=0"
  i=$((i + 1))
done
export GATEWAY_OPS_PORT=$((base + i))
exec node "$(dirname "$0")/../dist/apps/launcher/src/main.js"
