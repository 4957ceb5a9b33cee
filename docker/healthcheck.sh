#!/bin/sh
# The container's health check (the Dockerfile's HEALTHCHECK and the docker-compose*.yml healthchecks): GET /ready on
# the service's own port, over https when it speaks TLS (tls.cert set, README "Accounts and API keys") and http
# otherwise. Exit 0 when ready, 1 when not (or not answering).
#
# Settings are read as the service reads them: the ORDERS_ variable, else the file ORDERS_CONFIG_FILE names, else the
# default. The address is the listen address, or 127.0.0.1 when the service listens on every address.
# With TLS the certificate is not checked (curl -k): the check goes to an address the certificate need not name, sends
# no secret and reads only the status. Only sh and curl, both in the image.

# setting VARIABLE KEY DEFAULT: the value the service uses for properties key KEY
setting() {
  eval "value=\${$1-}"
  eval "set=\${$1+x}"
  if [ -z "$set" ] && [ -n "${ORDERS_CONFIG_FILE:-}" ] && [ -r "$ORDERS_CONFIG_FILE" ]; then
    value="$(sed -n "s/^[[:space:]]*$2[[:space:]]*[=:][[:space:]]*//p" "$ORDERS_CONFIG_FILE" | tail -n 1)"
  fi
  value="$(printf '%s' "$value" | tr -d '[:space:]')"
  [ -n "$value" ] || value="$3"
  printf '%s' "$value"
}

port="$(setting ORDERS_HTTP_PORT 'http\.port' 8080)"
host="$(setting ORDERS_HTTP_HOST 'http\.host' 0.0.0.0)"
case "$host" in
  0.0.0.0|::|'[::]') host=127.0.0.1 ;;
  \[*) ;;
  *:*) host="[$host]" ;;
esac
if [ -n "$(setting ORDERS_TLS_CERT 'tls\.cert' '')" ]; then
  scheme=https
else
  scheme=http
fi
curl -fsS -k --max-time 2 -o /dev/null "$scheme://$host:$port/ready" || exit 1
