#!/usr/bin/env bash
# loadtest/churn.sh [minutes=10] [rate=200] [url=URL] [pid=PID] [mode=durable|memory] [heap=512m] [warmup=30]
#                   [every=5] [settle=15] [jar=JAR]
#
# The connection-churn soak (issue 30): a new connection per request or stream session, RATE a second for MINUTES,
# mixing orders (201), keyless orders (401), malformed bodies (400), GETs and stream sessions closed with and without
# a close frame; PASS only if the open-connection and stream gauges come back to their idle baseline, nothing was
# closed at accept, every answer was the expected one, and file descriptors, threads and the heap after a full GC
# stay flat. Prints Markdown tables for loadtest/RESULTS.md; exits 1 on FAIL. See loadtest/churn.py.
#
# Without url it starts the service from JAR (default target/order-entry.jar, built here first) with a throwaway
# journal, audit trail, keys file and PostgreSQL database (127.0.0.1:5432; mode=memory: none) and the ORDERS_
# variables of the environment, e.g. ORDERS_HTTP_MAX_CONNECTIONS=300 ORDERS_WS_MAX_CONNECTIONS=100 to reach the caps
# sooner. With url it loads a running service with API keys as loadtest/run.sh does (loadtest/keys.sh:
# ORDERS_LOAD_KEYS, else 8 keys created with the jar in this environment's keys file), reads /metrics with
# ORDERS_LOAD_ADMIN_KEY when it needs a key, and takes fds, threads and the heap from pid=PID when given.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/.."
command -v python3 >/dev/null || { echo "python3 is not installed" >&2; exit 2; }
url="" jar=""
for a in "$@"; do
  case "$a" in
    url=*) url="${a#url=}" ;;
    jar=*) jar="${a#jar=}" ;;
  esac
done
if [ -n "$url" ]; then
  # shellcheck source=loadtest/keys.sh
  . "$here/keys.sh"
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  prepare_load_keys "$url" "$work" "$(date +%s%N | cut -c1-13)" "${ORDERS_LOAD_KEY_COUNT:-8}" || exit 2
  [ "$auth" = keys ] || { echo "the churn soak needs authentication on (its mix has 401s and keyed orders)" >&2; exit 2; }
  ORDERS_LOAD_KEYS="$keys_file" python3 "$here/churn.py" "$@"
  exit $?
fi
if [ -z "$jar" ]; then
  mvn -q -B -DskipTests package >/dev/null
fi
exec python3 "$here/churn.py" "$@"
