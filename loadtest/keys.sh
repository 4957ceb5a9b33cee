# shellcheck shell=bash
# Sourced by loadtest/run.sh: the API keys a load run authenticates with.
#
# prepare_load_keys URL WORK RUN_ID COUNT sets `auth` (keys or none) and `keys_file` (a file of secrets, one a line,
# for ORDERS_LOAD_KEYS; empty without keys):
#   - auth: ORDERS_LOAD_AUTH=keys|none, else what the service's /ready says (its "warnings" name ORDERS_AUTH=none
#     when it asks for no key);
#   - keys: the file ORDERS_LOAD_KEYS names, else COUNT trade keys created for accounts load-RUN_ID-1..COUNT with
#     `java -jar $ORDERS_JAR keys create` (default target/order-entry.jar), two JVMs at a time, in the keys file this
#     directory and environment name (ORDERS_AUTH_KEYS_FILE, default ./data/keys beside the journal): run the script
#     where the service runs, with its ORDERS_ variables. The keys stay in the keys file (`keys list`); their secrets
#     are written only under WORK.
# Either way it waits (15 s at most) until the service accepts every key, so a run never starts on 401s.

load_keys_jar="${ORDERS_JAR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/target/order-entry.jar}"

# create_keys WORK COUNT ACCOUNT_PREFIX [--admin] > secrets: one key per account ACCOUNT_PREFIX-1..COUNT
create_keys() {
  [ -f "$load_keys_jar" ] || {
    echo "no jar at $load_keys_jar to create API keys with: build it, or set ORDERS_JAR or ORDERS_LOAD_KEYS" >&2; return 2; }
  mkdir -p "$1/created"
  seq 1 "$2" | xargs -P 2 -I{} sh -c '"${JAVA:-java}" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -jar "$1" keys create \
      --account "$2-$3" $4 > "$5/created/$3" 2>> "$5/keys.log"' _ "$load_keys_jar" "$3" {} "${4:-}" "$1" \
    || { cat "$1/keys.log" >&2; echo "keys create failed" >&2; return 2; }
  cat "$1"/created/*
  rm -rf "$1/created"
}

# await_keys URL FILE: every secret in FILE reads orders at URL (200), within 15 s
await_keys() {
  local deadline=$((SECONDS + 15)) secret status
  while read -r secret; do
    [ -n "$secret" ] || continue
    until status="$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $secret" \
        "$1/api/v1/orders?limit=1")"; [ "$status" = 200 ]; do
      if [ "$SECONDS" -ge "$deadline" ]; then
        echo "the service at $1 answers $status to key ${secret%%.*}: it does not know it (a key of another keys" \
          "file than the service's ORDERS_AUTH_KEYS_FILE, not a trade key, or revoked)" >&2
        return 2
      fi
      sleep 0.2
    done
  done < "$2"
}

prepare_load_keys() {
  local url="$1" work="$2" run_id="$3" count="$4" ready started
  auth="${ORDERS_LOAD_AUTH:-}"
  keys_file=""
  if [ -z "$auth" ]; then
    ready="$(curl -fsS "$url/ready")" || { echo "the service at $url is not ready" >&2; return 2; }
    case "$ready" in *"ORDERS_AUTH=none"*) auth=none ;; *) auth=keys ;; esac
  fi
  case "$auth" in
    none)
      echo "== authentication is off at $url (ORDERS_AUTH=none): orders name their accounts"
      return 0 ;;
    keys) ;;
    *) echo "ORDERS_LOAD_AUTH must be keys or none, was '$auth'" >&2; return 2 ;;
  esac
  if [ -n "${ORDERS_LOAD_KEYS:-}" ]; then
    keys_file="$ORDERS_LOAD_KEYS"
    [ -r "$keys_file" ] || { echo "ORDERS_LOAD_KEYS=$keys_file cannot be read" >&2; return 2; }
    echo "== API keys: $(grep -c . "$keys_file") from $keys_file"
  else
    keys_file="$work/keys.txt"
    started=$SECONDS
    create_keys "$work" "$count" "load-$run_id" > "$keys_file" || return 2
    echo "== API keys: created $count for accounts load-$run_id-1..$count in" \
      "$(sed -n 's/.* in \(.*\); the secret.*/\1/p' "$work/keys.log" | head -1) ($((SECONDS - started)) s)"
  fi
  await_keys "$url" "$keys_file"
}
