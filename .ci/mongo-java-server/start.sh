#!/usr/bin/env bash
# Starts mongo-java-server (in-memory backend) in the background on a free loopback port, waits until
# it accepts connections, and prints, for `eval`:
#   export MONGODB_URI=mongodb://127.0.0.1:<port>/
#   export MONGO_JAVA_SERVER_PID=<pid>
#   export MONGO_JAVA_SERVER_DIR=<its run directory, with its log>
# Usage:  eval "$(bash .ci/mongo-java-server/start.sh)"; trap 'bash .ci/mongo-java-server/stop.sh' EXIT
# The classpath is resolved by Maven (artifacts cached in ~/.m2) and Main.java compiled by javac, once
# per version of pom.xml and Main.java, into ${ORDERS_CI_CACHE:-$HOME/.cache/orders-ci}.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache_dir="${ORDERS_CI_CACHE:-$HOME/.cache/orders-ci}"

for tool in java javac mvn; do
  command -v "$tool" >/dev/null || { echo "mongo-java-server: $tool is needed (a JDK 17 or later, for mongo-java-server 1.47, and Maven)" >&2; exit 1; }
done

key=$(cat "$here/pom.xml" "$here/Main.java" | sha256sum | cut -c1-16)
build="$cache_dir/mongo-java-server-$key"
if [ ! -s "$build/classpath.txt" ] || [ ! -f "$build/Main.class" ]; then
  echo "== mongo-java-server: resolving its classpath with Maven and compiling Main.java (once; cached in $build)" >&2
  mkdir -p "$cache_dir"
  rm -rf "$build"
  work=$(mktemp -d "$cache_dir/.mongo-java-server-build.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  cp "$here/pom.xml" "$here/Main.java" "$work/"
  # Maven's quiet mode still prints colour resets; only real messages reach stderr.
  (cd "$work" && mvn -q -B dependency:build-classpath -Dmdep.outputFile="$work/classpath.txt") 2>&1 |
    sed -e 's/\x1b\[[0-9;]*m//g' -e '/^$/d' >&2
  javac -d "$work" -cp "$(cat "$work/classpath.txt")" "$work/Main.java" >&2
  rm -rf "$work/target" "$work/pom.xml" "$work/Main.java"
  # Another run may have built it meanwhile: keep whichever landed first.
  mv -T "$work" "$build" 2>/dev/null || rm -rf "$work"
  trap - EXIT
fi

run_dir=$(mktemp -d "${TMPDIR:-/tmp}/mongo-java-server.XXXXXX")
: >"$run_dir/server.log"
nohup java -cp "$build:$(cat "$build/classpath.txt")" Main </dev/null >"$run_dir/server.log" 2>&1 &
pid=$!
# Whatever makes this script fail from here on must not leave the server running.
trap '[ -n "${ready:-}" ] || kill "$pid" 2>/dev/null || true' EXIT

port=
for _ in $(seq 1 600); do
  port=$(sed -n 's/^listening \([0-9][0-9]*\)$/\1/p' "$run_dir/server.log" || true)
  if [ -n "$port" ] && (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
  if ! kill -0 "$pid" 2>/dev/null; then
    cat "$run_dir/server.log" >&2
    echo "mongo-java-server: the server exited before accepting connections" >&2
    exit 1
  fi
  port=
  sleep 0.1
done
if [ -z "$port" ]; then
  echo "mongo-java-server: no connection accepted within 60 s; log in $run_dir/server.log" >&2
  exit 1
fi

ready=1
echo "== mongo-java-server listening on 127.0.0.1:$port (pid $pid)" >&2
echo "export MONGODB_URI=mongodb://127.0.0.1:$port/"
echo "export MONGO_JAVA_SERVER_PID=$pid"
echo "export MONGO_JAVA_SERVER_DIR=$run_dir"
