#!/usr/bin/env bash
# Stops the server start.sh started: the pid and run directory it exported (MONGO_JAVA_SERVER_PID,
# MONGO_JAVA_SERVER_DIR), or given as arguments. Kills that pid only, and only when it is that server.
set -euo pipefail
pid="${1:-${MONGO_JAVA_SERVER_PID:-}}"
run_dir="${2:-${MONGO_JAVA_SERVER_DIR:-}}"
[ -n "$pid" ] || { echo "mongo-java-server: no pid (MONGO_JAVA_SERVER_PID) to stop" >&2; exit 1; }

if kill -0 "$pid" 2>/dev/null; then
  if ! tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q 'mongo-java-server-.* Main'; then
    echo "mongo-java-server: pid $pid is not the server start.sh started; left alone" >&2
    exit 1
  fi
  kill -TERM "$pid"
  for _ in $(seq 1 100); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid"; fi
fi
case "$run_dir" in
  "${TMPDIR:-/tmp}"/mongo-java-server.*) rm -rf "$run_dir" ;;
esac
