#!/usr/bin/env bash
# loadtest/run.sh PROFILE [URL]
#
# Runs wrk against a running service and prints one report: wrk's figures, the status codes, the
# non-2xx count and, after the service has drained, the zero-loss check:
#   - every order answered 201 (its clientOrderId, recorded per wrk thread) is in PostgreSQL;
#   - the orders the service counted (metrics) equal the rows PostgreSQL gained;
#   - the 201s equal that count, except for requests wrk abandoned in flight at its deadline
#     (the service executed them; wrk never read the answer), at most one per connection.
# Exits non-zero if anything answered was lost, or on any non-2xx answer to a new order.
#
# PROFILE: smoke (-t2 -c16 -d5s), light (-t4 -c50 -d30s, the published write-up's command line),
#          medium (-t8 -c100 -d60s).
# SCRIPT=mixed.lua switches to place+cancel traffic (409s for cancels of orders that filled first
# are expected there). SCRIPT=batch.lua sends batches of ORDERS_LOAD_BATCH_SIZE (default 20) orders to
# POST /api/v1/orders/batch; each order's result counts as a single order's answer, so the same checks hold. PostgreSQL is reached with the usual PG* variables (PGHOST, PGUSER,
# PGDATABASE, ...); set SKIP_DB_CHECK=1 when the service runs without persistence.
#
# API keys (loadtest/keys.sh). The service's /ready says whether it asks for keys (its "warnings" name
# ORDERS_AUTH=none when it does not); ORDERS_LOAD_AUTH=keys|none overrides what it says. With keys, every request
# authenticates with one of several keys picked at random, each of its own account, and names no accountId:
#   - ORDERS_LOAD_KEYS=FILE: the secrets to use, one a line (trade keys, for a service on another machine);
#   - else ORDERS_LOAD_KEY_COUNT keys (16 for smoke, else 40) are created for accounts load-<run>-<n> with
#     `java -jar $ORDERS_JAR keys create` (ORDERS_JAR defaults to target/order-entry.jar) in the keys file of this
#     directory and environment (ORDERS_AUTH_KEYS_FILE, default ./data/keys beside the journal: run it where the
#     service runs, with its ORDERS_ variables), and the run waits until the service has reloaded them. They stay
#     in the keys file (`keys list`); their secrets are only in the run's temporary directory.
# Each key may place 1,000 orders a second by default (burst 2,000), so 40 keys leave twice the ~20,000 orders a
# second the service takes on two cores; a 429 still fails the run, saying so. When /metrics needs an admin key
# (ORDERS_AUTH_OPS=admin), ORDERS_LOAD_ADMIN_KEY gives its secret, or one is created with the others.
# Without keys (ORDERS_AUTH=none) orders name accounts acct-<thread>-<1..50> as before.
set -euo pipefail

profile="${1:-}"
url="${2:-http://127.0.0.1:8080}"
here="$(cd "$(dirname "$0")" && pwd)"
script="${SCRIPT:-order-submission.lua}"
# shellcheck source=loadtest/keys.sh
. "$here/keys.sh"

case "$profile" in
  smoke)  args=(-t2 -c16 -d5s) ;;
  light)  args=(-t4 -c50 -d30s) ;;
  medium) args=(-t8 -c100 -d60s) ;;
  *) echo "usage: $0 smoke|light|medium [URL]" >&2; exit 2 ;;
esac
connections="${args[1]#-c}"
# orders one connection may have in flight when wrk stops: one request, of one order or of a batch
in_flight="$connections"
[ "$script" = "batch.lua" ] && in_flight=$((connections * ${ORDERS_LOAD_BATCH_SIZE:-20}))

command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install -y wrk)" >&2; exit 2; }
command -v curl >/dev/null || { echo "curl is not installed" >&2; exit 2; }

admin_header=()
[ -n "${ORDERS_LOAD_ADMIN_KEY:-}" ] && admin_header=(-H "Authorization: Bearer $ORDERS_LOAD_ADMIN_KEY")
metric() { # metric NAME_AND_LABELS -> value (0 when absent)
  curl -fsS ${admin_header[@]+"${admin_header[@]}"} "$url/metrics" | awk -v m="$1" 'index($0, m" ") == 1 { v = $2 } END { printf "%d\n", (v == "" ? 0 : v) }'
}
placed_metric='orders_commands_total{result="PLACED"}'
lag_metric='orders_persistence_lag_events'
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
[ "$db_check" = "1" ] && db_before="$(db_count)"

echo "== wrk ${args[*]} -s $script $url ($profile)"
ORDERS_LOAD_BATCH_SIZE="${ORDERS_LOAD_BATCH_SIZE:-20}" ORDERS_RUN_ID="$run_id" ORDERS_ACK_DIR="$work" ORDERS_LOADTEST_DIR="$here" ORDERS_LOAD_KEYS="$keys_file" \
  wrk "${args[@]}" --latency -s "$here/$script" "$url" | tee "$work/wrk.out"

acked=$(cat "$work"/acked-*.txt 2>/dev/null | wc -l)
result_201=$(awk '/^RESULT_201/ { print $2 }' "$work/wrk.out")
non2xx=$(awk '/^RESULT / { for (i = 1; i <= NF; i++) if ($i ~ /^non2xx=/) { sub("non2xx=", "", $i); print $i } }' "$work/wrk.out")

echo "== draining"
for _ in $(seq 1 120); do
  drained && break
  sleep 1
done
placed_after="$(metric "$placed_metric")"
placed=$((placed_after - placed_before))

failed=0
echo "== zero-loss check"
echo "201 answers read by wrk:          $result_201 (recorded ids: $acked)"
echo "orders placed per service metrics: $placed"
abandoned=$((placed - acked))
echo "abandoned in flight at deadline:   $abandoned (allowed 0..$in_flight)"
if [ "$abandoned" -lt 0 ] || [ "$abandoned" -gt "$in_flight" ]; then
  echo "FAIL: the service placed $placed orders but $acked were answered 201"; failed=1
fi
if [ "$db_check" = "1" ]; then
  db_after="$(db_count)"
  db_rows=$((db_after - db_before))
  echo "orders PostgreSQL gained:          $db_rows"
  [ "$db_rows" -eq "$placed" ] || { echo "FAIL: PostgreSQL gained $db_rows orders, the service placed $placed"; failed=1; }
  cat "$work"/acked-*.txt > "$work/acked.txt"
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
  echo "FAIL: the keys' rate limits answered 429 (orders, requests: $limited_before -> $limited_after): use more keys" \
    "(ORDERS_LOAD_KEY_COUNT, or more in ORDERS_LOAD_KEYS), or raise the service's ORDERS_RATE_LIMIT_ORDERS_PER_SECOND"
  failed=1
fi
if { [ "$script" = "order-submission.lua" ] || [ "$script" = "batch.lua" ]; } && [ "${non2xx:-0}" != "0" ]; then
  echo "FAIL: $non2xx non-2xx answers to new orders"; failed=1
fi
if [ "$failed" = "0" ]; then echo "ZERO LOSS: OK"; else echo "ZERO LOSS: FAILED"; fi
exit "$failed"
