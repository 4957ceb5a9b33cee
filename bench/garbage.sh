#!/usr/bin/env bash
# bench/garbage.sh [seconds=30] [warmup=60] [windows=2] [mode=durable|memory] [load=wrk|fixed:RATE] [auth=keys|none]
# What an order leaves behind on the live heap, from class histograms between load windows (bench/garbage.py).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install -y wrk)" >&2; exit 2; }
mvn -q -B -DskipTests package >/dev/null
case " $* " in *" load=fixed"*) gcc -O2 -Wall -Wextra -o target/fixedrate loadtest/fixedrate.c -lm ;; esac
exec python3 bench/garbage.py "$@"
