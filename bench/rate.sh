#!/usr/bin/env bash
# bench/rate.sh target=json|service [rate=10000] [seconds=20] [warm=10] [wrkwarmup=40] [mode=durable|memory]
#               [auth=keys|none]
#
# CPU per request, by thread, at one fixed request rate, for the JSON-only server or the service: under the same
# wrk line the two run at very different rates, and CPU per request falls with the rate (see bench/rate.py).
# auth=keys (default) as the service ships, the orders spread over 64 API keys; auth=none: ORDERS_AUTH=none.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install -y wrk)" >&2; exit 2; }
mvn -q -B -DskipTests package dependency:build-classpath -Dmdep.outputFile=target/test-cp.txt >/dev/null
exec python3 bench/rate.py "$@"
