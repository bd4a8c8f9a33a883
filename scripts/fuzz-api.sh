#!/usr/bin/env bash
# Fuzz the HTTP API with Schemathesis against the service's own OpenAPI document.
#
#   bash scripts/fuzz-api.sh                                            # in-memory store
#   MONGODB_URI=mongodb://127.0.0.1:27017/ bash scripts/fuzz-api.sh     # in-memory store, then MongoDB
#
# For each store: build, start the service on a free loopback port (admin API on, rate limit out of
# the way, a transition table so that status changes can succeed, webhooks allowed to loopback so
# that the hooks can point every endpoint at the run's receiver), create a dashboard and an API
# token through the admin API, run `st run` with every check (`[checks] enabled = true` in scripts/fuzz/schemathesis.toml) on GET /api/v1/openapi.json (credentials per
# security scheme in scripts/fuzz/schemathesis.toml, unique externalId and Idempotency-Key, and
# webhook URLs on a receiver on loopback that answers 410, from scripts/fuzz/hooks.py), then stop the
# service with SIGTERM. On MongoDB each run uses a database of its own (fuzz_<random>), dropped at the end.
# Exit status: 0 when no store had a failure. Schemathesis' output is shown with its "=== ... ==="
# banners turned into "-- ... --" (the file in the output directory keeps them): its closing banner
# ("=== 1 warning in 104.52s ===") has pytest's form, and a CI that reads pytest's closing line would
# take it for a run that executed no test.
#
# Needs python3 (with venv and pip; PyPI reachable on the first run) and node/npm. Schemathesis is
# installed once into ${ORDERS_CI_CACHE:-$HOME/.cache/orders-ci}/schemathesis-venv.
# Knobs: FUZZ_STORES (memory: also the in-memory store), FUZZ_MAX_EXAMPLES (default 300 per operation and phase), FUZZ_WORKERS (1), FUZZ_SEED,
# FUZZ_TIMEOUT (hard limit per store in seconds, 600), FUZZ_LOG_LEVEL (service log level, silent),
# FUZZ_OUT_DIR (where reports and logs go; a new temporary directory by default), FUZZ_HOOKS_TRACE
# (a file to which the hooks append every request as sent), FUZZ_KEEP_DB (keep the MongoDB database).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FUZZ=$ROOT/scripts/fuzz
ST_VERSION=4.32.5
CACHE=${ORDERS_CI_CACHE:-$HOME/.cache/orders-ci}
VENV=$CACHE/schemathesis-venv
MAX_EXAMPLES=${FUZZ_MAX_EXAMPLES:-300}
# One worker by default: with several, Hypothesis calls ast.parse from several threads, which failed
# here on Python 3.11.7 ("SystemError: AST constructor recursion depth mismatch", see CPython
# gh-106905) and aborted the coverage phase of an operation.
WORKERS=${FUZZ_WORKERS:-1}
HARD_TIMEOUT=${FUZZ_TIMEOUT:-600}
OUT=${FUZZ_OUT_DIR:-$(mktemp -d -t orders-fuzz.XXXXXX)}
mkdir -p "$OUT"

log() { printf '== %s\n' "$*" >&2; }

# --- Schemathesis, pinned, in a cached virtualenv --------------------------------------------------
if [[ "$("$VENV/bin/st" --version 2>/dev/null)" != "st, version $ST_VERSION" ]]; then
  log "installing schemathesis $ST_VERSION into $VENV"
  rm -rf "$VENV"
  mkdir -p "$CACHE"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$ST_VERSION"
fi

# --- Build ----------------------------------------------------------------------------------------
cd "$ROOT"
# Install when node_modules is missing or older than the lockfile (after a checkout that changed it).
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  npm ci --no-audit --no-fund
fi
log "building"
npm run --silent build

echo '{ "pending": ["paid", "refused"], "paid": ["refunded", "chargedback"] }' > "$OUT/transitions.json"
export ADMIN_TOKEN FUZZ_ADMIN_TOKEN FUZZ_API_TOKEN
ADMIN_TOKEN=fuzz-admin-$(python3 -c 'import secrets; print(secrets.token_hex(16))')
FUZZ_ADMIN_TOKEN=$ADMIN_TOKEN

# The webhook receiver of the run: every endpoint the fuzzer makes points at it (scripts/fuzz/hooks.py).
SINK_PORT=$(python3 "$FUZZ/service.py" free-port)
python3 "$FUZZ/service.py" sink "$SINK_PORT" &
SINK_PID=$!
export FUZZ_WEBHOOK_SINK=http://127.0.0.1:$SINK_PORT/fuzz

SERVICE_PID=
stop_service() {
  [[ -n "$SERVICE_PID" ]] || return 0
  kill -TERM "$SERVICE_PID" 2>/dev/null || true
  local status=0
  wait "$SERVICE_PID" || status=$?
  SERVICE_PID=
  return "$status"
}
trap 'stop_service || true; kill "$SINK_PID" 2>/dev/null || true' EXIT
trap 'exit 130' INT TERM

# fuzz_store NAME [VAR=VALUE...]: one Schemathesis run against a fresh service with that environment.
fuzz_store() {
  local store=$1; shift
  local dir=$OUT/$store port base started status=0
  mkdir -p "$dir"
  port=$(python3 "$FUZZ/service.py" free-port)
  base=http://127.0.0.1:$port
  started=$SECONDS
  log "[$store] starting the service on $base"
  env -u MONGODB_URI -u MONGODB_DB "$@" PORT="$port" HOST=127.0.0.1 ADMIN_TOKEN="$ADMIN_TOKEN" \
    LOG_LEVEL="${FUZZ_LOG_LEVEL:-silent}" RATE_LIMIT_MAX=1000000000 \
    ORDER_TRANSITIONS_FILE="$OUT/transitions.json" WEBHOOK_ALLOW_PRIVATE_URLS=true \
    node "$ROOT/dist/src/bootstrap/main.js" > "$dir/service.log" 2>&1 &
  SERVICE_PID=$!
  # Called as `fuzz_store ... || ...`, so `set -e` does not apply in here: check each step.
  if ! python3 "$FUZZ/service.py" wait "$base" 30 ||
    ! FUZZ_API_TOKEN=$(python3 "$FUZZ/service.py" credentials "$base"); then
    log "[$store] the service did not start (see $dir/service.log)"
    stop_service || true
    return 1
  fi

  log "[$store] schemathesis: --max-examples $MAX_EXAMPLES, --workers $WORKERS (output in $dir)"
  # Run from $dir, so that Hypothesis' caches and the reports land there and not in the repository.
  (
    cd "$dir"
    FUZZ_BASE_URL=$base SCHEMATHESIS_HOOKS=$FUZZ/hooks.py timeout --signal=INT --kill-after=30 "$HARD_TIMEOUT" \
      "$VENV/bin/st" --config-file "$FUZZ/schemathesis.toml" run "$base/api/v1/openapi.json" \
      --max-examples "$MAX_EXAMPLES" \
      --workers "$WORKERS" \
      ${FUZZ_SEED:+--seed "$FUZZ_SEED"} \
      --generation-database none \
      --request-timeout 30 \
      --output-sanitize false \
      --report junit --report-dir "$dir" \
      --no-color
  ) 2>&1 | tee "$dir/schemathesis.txt" | sed -E 's/^=+ (.*[^=]) =+$/-- \1 --/' || status=$?

  python3 "$FUZZ/service.py" check-token "$base" || status=1
  if ! stop_service; then
    log "[$store] the service did not exit cleanly on SIGTERM (see $dir/service.log)"
    status=1
  fi
  log "[$store] done in $((SECONDS - started)) s: $([[ $status -eq 0 ]] && echo passed || echo FAILED)"
  return "$status"
}

failed=()
# The embedded default store (a SQLite file of this run's own), then MongoDB; FUZZ_STORES=memory adds
# the in-memory store, which the HTTP suite covers as well.
fuzz_store sqlite STORE=sqlite SQLITE_PATH="$OUT/sqlite/orders.db" || failed+=(sqlite)
if [[ " ${FUZZ_STORES:-} " == *" memory "* ]]; then fuzz_store memory STORE=memory || failed+=(memory); fi

if [[ -n "${MONGODB_URI:-}" ]]; then
  db=fuzz_$(python3 -c 'import secrets; print(secrets.token_hex(6))')
  fuzz_store mongodb MONGODB_URI="$MONGODB_URI" MONGODB_DB="$db" || failed+=(mongodb)
  if [[ -z "${FUZZ_KEEP_DB:-}" ]]; then
    MONGODB_URI=$MONGODB_URI FUZZ_DB=$db node -e '
      const { MongoClient } = require("mongodb");
      const client = new MongoClient(process.env.MONGODB_URI, { serverSelectionTimeoutMS: 5000 });
      client.connect().then(() => client.db(process.env.FUZZ_DB).dropDatabase())
        .catch((err) => console.error(`could not drop ${process.env.FUZZ_DB}: ${err.message}`))
        .finally(() => client.close());' || true
  fi
else
  log "MONGODB_URI is not set: MongoDB not fuzzed"
fi

log "reports and logs: $OUT"
if (( ${#failed[@]} )); then
  log "failures on: ${failed[*]}"
  exit 1
fi
log "no failures"
