#!/usr/bin/env bash
# loadtest/ws.sh PROFILE [URL]
#
# Order entry over WebSocket sessions (/api/v1/stream, op "place") against a running service, with the light C
# generator target/wsload (loadtest/wsload.c, built here with gcc when missing or older than its source), and the
# same zero-loss check as loadtest/run.sh once the service has drained:
#   - every order answered 201 (its clientOrderId, in wsload's ack file) is in PostgreSQL;
#   - the orders the service counted (metrics) equal the rows PostgreSQL gained;
#   - the 201s equal that count, except for orders in flight on a session the server closed (wsload waits for every
#     answer before it stops, so normally none), at most SESSIONS x WINDOW.
# Exits non-zero if anything answered was lost, on any non-2xx answer, on a message the stream refused for its
# connection's budget, or when wsload itself failed (2: a session could not be opened; 3: answers missing).
#
# PROFILE: smoke (16 sessions, 5 s), light (64 sessions, 30 s), medium (100 sessions, 60 s).
# WS_MODE: window=W (default window=1: each session keeps W orders in flight, closed loop, as wrk) or rate=N (N orders
# a second across the sessions, timed from their due times; WSLOAD_WINDOW orders in flight per session, default 1).
# WS_SESSIONS, WS_SECONDS and WS_WARMUP (default 1 s for smoke, 5 s else; warm-up orders are checked as the others)
# override the profile. One line of figures (wsload's, on stdout) and a human summary come before the check.
# PostgreSQL is reached with the usual PG* variables (PGHOST, PGUSER, PGDATABASE, ...); set SKIP_DB_CHECK=1 when the
# service runs without persistence.
#
# API keys: exactly as run.sh (loadtest/keys.sh, ORDERS_LOAD_AUTH, ORDERS_LOAD_KEYS, ORDERS_LOAD_KEY_COUNT,
# ORDERS_LOAD_ADMIN_KEY), except that no more keys are created than there are sessions: a session authenticates its
# upgrade once (Authorization: Bearer), with key i mod nkeys, so all its orders are that key's account, and each key
# may place 1,000 orders a second by default (ORDERS_RATE_LIMIT_ORDERS_PER_SECOND). A session that places more than
# that gets 429s: use more sessions. Once it authenticated, a connection's message budget is twice its key's request budget
# (ORDERS_RATE_LIMIT_REQUESTS_PER_SECOND, 2,000 by default); without keys (ORDERS_AUTH=none) wsload logs in without
# one to get the same budget, and its orders name accounts ws-<session>. A service takes at most 500 stream
# connections from one address by default (ORDERS_WS_MAX_CONNECTIONS_PER_ADDRESS), and 256 commands waiting per
# connection (ORDERS_WS_MAX_PENDING_ORDERS).
set -euo pipefail

profile="${1:-}"
url="${2:-http://127.0.0.1:8080}"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
# shellcheck source=loadtest/keys.sh
. "$here/keys.sh"

case "$profile" in
  smoke)  sessions=16;  seconds=5;  warmup=1 ;;
  light)  sessions=64;  seconds=30; warmup=5 ;;
  medium) sessions=100; seconds=60; warmup=5 ;;
  *) echo "usage: $0 smoke|light|medium [URL]" >&2; exit 2 ;;
esac
mode="${WS_MODE:-window=1}"
sessions="${WS_SESSIONS:-$sessions}"
seconds="${WS_SECONDS:-$seconds}"
warmup="${WS_WARMUP:-$warmup}"
case "$mode" in
  window=[1-9]*) window="${mode#window=}" ;;
  rate=[1-9]*) window="${WSLOAD_WINDOW:-1}" ;;
  *) echo "WS_MODE must be window=W or rate=N, was '$mode'" >&2; exit 2 ;;
esac
# orders that may be in flight on sessions when something goes wrong: placed, but their answers never read
in_flight=$((sessions * window))

case "$url" in
  http://*) hostport="${url#http://}" ;;
  https://*) echo "wsload speaks plain ws:// only; $url is HTTPS" >&2; exit 2 ;;
  *) hostport="$url"; url="http://$url" ;;
esac
hostport="${hostport%%/*}"
url="http://$hostport"
host="${hostport%:*}"
port="${hostport##*:}"
[ "$host" != "$hostport" ] || port=80

command -v curl >/dev/null || { echo "curl is not installed" >&2; exit 2; }
bin="$root/target/wsload"
if [ ! -x "$bin" ] || [ "$here/wsload.c" -nt "$bin" ]; then
  command -v gcc >/dev/null || { echo "gcc is not installed (apt-get install -y gcc)" >&2; exit 2; }
  mkdir -p "$root/target"
  gcc -O2 -Wall -Wextra -o "$bin" "$here/wsload.c"
fi

admin_header=()
[ -n "${ORDERS_LOAD_ADMIN_KEY:-}" ] && admin_header=(-H "Authorization: Bearer $ORDERS_LOAD_ADMIN_KEY")
metric() { # metric NAME_AND_LABELS -> value (0 when absent)
  curl -fsS ${admin_header[@]+"${admin_header[@]}"} "$url/metrics" | awk -v m="$1" 'index($0, m" ") == 1 { v = $2 } END { printf "%d\n", (v == "" ? 0 : v) }'
}
placed_metric='orders_commands_total{result="PLACED"}'
lag_metric='orders_persistence_lag_events'
refused_metric='orders_ws_refused_messages_total'
db_check=1
[ "${SKIP_DB_CHECK:-0}" = "1" ] && db_check=0
if [ "$db_check" = "1" ] && ! command -v psql >/dev/null; then
  echo "psql is not installed; set SKIP_DB_CHECK=1 to run without the database check" >&2; exit 2
fi
db_count() { psql -XtAq -c "select count(*) from orders" ; }

curl -fsS "$url/ready" >/dev/null || { echo "the service at $url is not ready" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
run_id="$(date +%s%N | cut -c1-13)"

count="${ORDERS_LOAD_KEY_COUNT:-$([ "$profile" = smoke ] && echo 16 || echo 40)}"
[ -z "${ORDERS_LOAD_KEY_COUNT:-}" ] && [ "$count" -gt "$sessions" ] && count="$sessions"
prepare_load_keys "$url" "$work" "$run_id" "$count" || exit 2
if [ "$auth" = keys ]; then
  metrics_status="$(curl -s -o /dev/null -w '%{http_code}' ${admin_header[@]+"${admin_header[@]}"} "$url/metrics")"
  if [ "$metrics_status" = 401 ] || [ "$metrics_status" = 403 ]; then
    if [ -n "${ORDERS_LOAD_ADMIN_KEY:-}" ] || [ -n "${ORDERS_LOAD_KEYS:-}" ]; then
      echo "/metrics answers $metrics_status: set ORDERS_LOAD_ADMIN_KEY to the secret of an admin key" >&2; exit 2
    fi
    create_keys "$work" 1 "load-$run_id-admin" --admin > "$work/admin.txt" || exit 2
    await_admin() { [ "$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $1" "$url/metrics")" = 200 ]; }
    admin="$(cat "$work/admin.txt")"
    for _ in $(seq 1 75); do await_admin "$admin" && break; sleep 0.2; done
    await_admin "$admin" || { echo "the service does not accept the admin key created for /metrics" >&2; exit 2; }
    admin_header=(-H "Authorization: Bearer $admin")
    echo "== /metrics needs an admin key (ORDERS_AUTH_OPS=admin): created one for account load-$run_id-admin-1"
  fi
fi
drained() { # nothing waiting for an answer and, with the database check, nothing waiting for PostgreSQL
  [ "$(metric "orders_http_waiting_requests")" = "0" ] && { [ "$db_check" = "0" ] || [ "$(metric "$lag_metric")" = "0" ]; }
}
# Earlier load may still be on its way into PostgreSQL; count from a drained state.
for _ in $(seq 1 120); do drained && break; sleep 1; done
drained || { echo "the service did not drain the previous load within 120 s" >&2; exit 2; }
placed_before="$(metric "$placed_metric")"
limited_before="$(metric 'orders_rate_limited_total{budget="orders"}') $(metric 'orders_rate_limited_total{budget="requests"}')"
refused_before="$(metric "$refused_metric")"
[ "$db_check" = "1" ] && db_before="$(db_count)"

echo "== wsload $mode, $sessions sessions, $seconds s after $warmup s warm-up, $host:$port ($profile)"
rc=0
WSLOAD_RUN_ID="$run_id" WSLOAD_WINDOW="$window" \
  "$bin" "$host" "$port" "$mode" "$seconds" "$warmup" "$sessions" "${keys_file:--}" "$work/acked.txt" \
  > "$work/ws.out" 2> "$work/ws.err" || rc=$?
cat "$work/ws.err" "$work/ws.out"
[ -f "$work/acked.txt" ] || : > "$work/acked.txt"

acked=$(wc -l < "$work/acked.txt")
result_201=$(sed -n 's/.*answers by status (whole run): \(.*\); error codes.*/\1/p' "$work/ws.err" | tr ',' '\n' \
  | awk -F': ' '$1 ~ /^ *201$/ { print $2 }')
result_201="${result_201:-0}"
non2xx=$(awk '/^wsload / { for (i = 1; i <= NF; i++) if ($i ~ /^non2xx=/) { sub("non2xx=", "", $i); print $i } }' "$work/ws.out")
non2xx_warm=$(sed -n 's/.*warm-up: [0-9]* sent, [0-9]* answered (\([0-9]*\) non-2xx).*/\1/p' "$work/ws.err")

echo "== draining"
for _ in $(seq 1 120); do
  drained && break
  sleep 1
done
placed_after="$(metric "$placed_metric")"
placed=$((placed_after - placed_before))

failed=0
echo "== zero-loss check"
echo "201 answers read by wsload:       $result_201 (recorded ids: $acked)"
[ "$result_201" = "$acked" ] || { echo "FAIL: $result_201 answers were 201 but $acked ids were recorded"; failed=1; }
echo "orders placed per service metrics: $placed"
abandoned=$((placed - acked))
echo "placed but never answered 201:     $abandoned (allowed 0..$in_flight)"
if [ "$abandoned" -lt 0 ] || [ "$abandoned" -gt "$in_flight" ]; then
  echo "FAIL: the service placed $placed orders but $acked were answered 201"; failed=1
fi
if [ "$db_check" = "1" ]; then
  db_after="$(db_count)"
  db_rows=$((db_after - db_before))
  echo "orders PostgreSQL gained:          $db_rows"
  [ "$db_rows" -eq "$placed" ] || { echo "FAIL: PostgreSQL gained $db_rows orders, the service placed $placed"; failed=1; }
  missing=$(psql -XtAq -v ON_ERROR_STOP=1 <<SQL
create temp table acked(client_order_id text primary key);
\copy acked from '$work/acked.txt'
select count(*) from acked a where not exists (select 1 from orders o where o.client_order_id = a.client_order_id);
SQL
)
  echo "answered 201 but not in PostgreSQL: $missing"
  [ "$missing" = "0" ] || { echo "FAIL: $missing answered orders are missing from PostgreSQL"; failed=1; }
fi
limited_after="$(metric 'orders_rate_limited_total{budget="orders"}') $(metric 'orders_rate_limited_total{budget="requests"}')"
if [ "$limited_after" != "$limited_before" ]; then
  echo "FAIL: the keys' rate limits answered 429 (orders, requests: $limited_before -> $limited_after): use more" \
    "sessions (WS_SESSIONS; each is one key's), fewer orders in flight, or raise the service's" \
    "ORDERS_RATE_LIMIT_ORDERS_PER_SECOND"
  failed=1
fi
refused_after="$(metric "$refused_metric")"
if [ "$refused_after" != "$refused_before" ]; then
  echo "FAIL: the stream refused $((refused_after - refused_before)) messages unread for their connection's budget" \
    "(never answered): use more sessions, or raise the service's ORDERS_RATE_LIMIT_REQUESTS_PER_SECOND"
  failed=1
fi
if [ "${non2xx:-0}" != "0" ] || [ "${non2xx_warm:-0}" != "0" ]; then
  echo "FAIL: ${non2xx:-0} non-2xx answers to new orders (and ${non2xx_warm:-0} in the warm-up)"; failed=1
fi
if [ "$rc" != "0" ]; then
  echo "FAIL: wsload exited $rc"; failed=1
fi
if [ "$failed" = "0" ]; then echo "ZERO LOSS: OK"; else echo "ZERO LOSS: FAILED"; fi
exit "$failed"
