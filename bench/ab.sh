#!/usr/bin/env bash
# bench/ab.sh [a=keys] [b=none] [rounds=10] [window=10] [warmup=60] [mode=memory] [wrk=2x64] [jar_a=JAR] [jar_b=JAR]
# Two configurations of the service measured in turns, both running side by side, so that the machine's drift (2x
# between sessions, 30% between minutes here) cancels out of their ratio; see bench/ab.py.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install -y wrk)" >&2; exit 2; }
mvn -q -B -DskipTests package >/dev/null
exec python3 bench/ab.py "$@"
