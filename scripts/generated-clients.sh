#!/usr/bin/env bash
# The OpenAPI document as integrators' own tools read it, against a running service:
#   1. `redocly lint` (@redocly/cli, recommended rules): no error;
#   2. openapi-typescript generates the types, scripts/clients/walkthrough.ts (the README's
#      walk-through, through openapi-fetch) compiles with them under tsc --strict, and runs;
#   3. openapi-python-client generates a package with no warning about any operation or model, and
#      scripts/clients/walkthrough.py runs the same walk-through with it.
# The service runs on a fresh SQLite file with the admin API on and the README's transition table.
# openapi-python-client is pinned and installed once into ${ORDERS_CI_CACHE:-$HOME/.cache/orders-ci}
# (needs python3 with venv and pip; PyPI reachable on the first run). Exit status 0 when all pass.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OPC_VERSION=0.29.1
CACHE=${ORDERS_CI_CACHE:-$HOME/.cache/orders-ci}
VENV=$CACHE/openapi-python-client-venv
OUT=$ROOT/.build/clients
log() { printf '== %s\n' "$*" >&2; }

if [[ "$("$VENV/bin/openapi-python-client" --version 2>/dev/null)" != *"$OPC_VERSION"* ]]; then
  log "installing openapi-python-client $OPC_VERSION into $VENV"
  rm -rf "$VENV"
  mkdir -p "$CACHE"
  python3 -m venv "$VENV"
  # python-dateutil: the generated package parses dates with it.
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "openapi-python-client==$OPC_VERSION" "python-dateutil>=2.8"
fi

cd "$ROOT"
rm -rf "$OUT"
mkdir -p "$OUT"
npm run --silent build

PORT=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
export BASE_URL=http://127.0.0.1:$PORT
export ADMIN_TOKEN=clients-admin-$(node -p 'require("crypto").randomBytes(16).toString("hex")')
echo '{ "pending": ["paid", "refused"], "paid": ["refunded", "chargedback"] }' > "$OUT/transitions.json"
start_service() {
  PORT=$PORT SQLITE_PATH=$OUT/$1.db ORDER_TRANSITIONS_FILE=$OUT/transitions.json LOG_LEVEL=warn \
    node dist/src/bootstrap/main.js > "$OUT/$1-service.log" 2>&1 &
  SERVICE_PID=$!
  for _ in $(seq 1 100); do
    node -e 'fetch(process.argv[1]).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' "$BASE_URL/healthz" && return 0
    sleep 0.1
  done
  log "the service did not start"; cat "$OUT/$1-service.log" >&2; return 1
}
stop_service() { kill -TERM "$SERVICE_PID" 2>/dev/null || true; wait "$SERVICE_PID" 2>/dev/null || true; }
trap stop_service EXIT

status=0
start_service typescript
node -e 'fetch(process.argv[1]).then((r) => r.text()).then((t) => require("fs").writeFileSync(process.argv[2], t))' "$BASE_URL/api/v1/openapi.json" "$OUT/openapi.json"

log "redocly lint"
npx --no-install redocly lint "$OUT/openapi.json" --format=summary || status=1

log "openapi-typescript + openapi-fetch, compiled under tsc --strict"
npx --no-install openapi-typescript "$OUT/openapi.json" -o "$OUT/schema.d.ts"
cp scripts/clients/walkthrough.ts "$OUT/walkthrough.ts"
cat > "$OUT/tsconfig.json" <<'JSON'
{
  "compilerOptions": {
    "target": "ES2022", "module": "commonjs", "moduleResolution": "node", "lib": ["ES2024", "DOM"], "types": ["node"],
    "strict": true, "noUncheckedIndexedAccess": true, "esModuleInterop": true, "outDir": "out"
  },
  "files": ["walkthrough.ts", "schema.d.ts"]
}
JSON
if npx --no-install tsc -p "$OUT/tsconfig.json"; then
  node "$OUT/out/walkthrough.js" || status=1
else
  status=1
fi
stop_service

log "openapi-python-client"
start_service python
# Its post-generation hook runs ruff, which the venv holds: the venv goes first on PATH, or the hook
# warns "ruff is not in PATH" on a machine without a ruff of its own (and that warning fails the step).
generated=$(PATH="$VENV/bin:$PATH" "$VENV/bin/openapi-python-client" generate --path "$OUT/openapi.json" --output-path "$OUT/python" 2>&1) || status=1
echo "$generated"
if grep -qiE 'warning|error|unable to|cannot' <<< "$generated"; then
  log "openapi-python-client warned about the document"
  status=1
fi
PYTHONPATH=$OUT/python "$VENV/bin/python" scripts/clients/walkthrough.py || status=1
stop_service

[[ $status -eq 0 ]] && log "generated clients: the walk-through passed in TypeScript and Python, and redocly lint found no error"
exit $status
