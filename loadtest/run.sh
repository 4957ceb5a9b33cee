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
# are expected there). PostgreSQL is reached with the usual PG* variables (PGHOST, PGUSER,
# PGDATABASE, ...); set SKIP_DB_CHECK=1 when the service runs without persistence.
set -euo pipefail

profile="${1:-}"
url="${2:-http://127.0.0.1:8080}"
here="$(cd "$(dirname "$0")" && pwd)"
script="${SCRIPT:-order-submission.lua}"

case "$profile" in
  smoke)  args=(-t2 -c16 -d5s) ;;
  light)  args=(-t4 -c50 -d30s) ;;
  medium) args=(-t8 -c100 -d60s) ;;
  *) echo "usage: $0 smoke|light|medium [URL]" >&2; exit 2 ;;
esac
connections="${args[1]#-c}"

command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install -y wrk)" >&2; exit 2; }
command -v curl >/dev/null || { echo "curl is not installed" >&2; exit 2; }

metric() { # metric NAME_AND_LABELS -> value (0 when absent)
  curl -fsS "$url/metrics" | awk -v m="$1" 'index($0, m" ") == 1 { v = $2 } END { printf "%d\n", (v == "" ? 0 : v) }'
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
drained() { # nothing waiting for an answer and, with the database check, nothing waiting for PostgreSQL
  [ "$(metric "orders_http_waiting_requests")" = "0" ] && { [ "$db_check" = "0" ] || [ "$(metric "$lag_metric")" = "0" ]; }
}
# Earlier load may still be on its way into PostgreSQL; count from a drained state.
for _ in $(seq 1 120); do drained && break; sleep 1; done
drained || { echo "the service did not drain the previous load within 120 s" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
placed_before="$(metric "$placed_metric")"
[ "$db_check" = "1" ] && db_before="$(db_count)"

echo "== wrk ${args[*]} -s $script $url ($profile)"
ORDERS_RUN_ID="$(date +%s%N | cut -c1-13)" ORDERS_ACK_DIR="$work" ORDERS_LOADTEST_DIR="$here" \
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
echo "abandoned in flight at deadline:   $abandoned (allowed 0..$connections)"
if [ "$abandoned" -lt 0 ] || [ "$abandoned" -gt "$connections" ]; then
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
if [ "$script" = "order-submission.lua" ] && [ "${non2xx:-0}" != "0" ]; then
  echo "FAIL: $non2xx non-2xx answers to new orders"; failed=1
fi
if [ "$failed" = "0" ]; then echo "ZERO LOSS: OK"; else echo "ZERO LOSS: FAILED"; fi
exit "$failed"
