#!/usr/bin/env bash
# loadtest/soak.sh [minutes=10] [rate=1000] [subscribers=50] [heap=1g]: ten minutes or more of mixed orders, cancels
# and stream subscribers against the real jar (durable, with PostgreSQL on 127.0.0.1:5432), one row a minute of what
# must stay bounded: heap, RSS, disk, latency. See loadtest/soak.py.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install -y wrk)" >&2; exit 2; }
mvn -q -B -DskipTests package dependency:build-classpath -Dmdep.outputFile=target/test-cp.txt >/dev/null
mvn -q -B -DskipTests test-compile >/dev/null
exec python3 loadtest/soak.py "$@"
