#!/usr/bin/env bash
# bench/entry.sh [runs=3] [seconds=20] [rate=5000] [warmup=5] [startwarmup=40] [batchconnections=64] [wswindow=8]
#
# Order entry three ways against one durable service, in turns (issue 35's targets): single REST orders (wrk with
# loadtest/order-submission.lua), REST batches of 20 (wrk with loadtest/batch.lua) and WebSocket sessions
# (target/wsload, one order per message), closed loop on 64 connections or sessions; then REST (target/fixedrate) and
# WebSocket (target/wsload) at a fixed rate, coordinated omission corrected. Prints orders a second, p50/p99/p99.9 and
# the service process's CPU per order of each, the medians and the ratios. See bench/entry.py.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install -y wrk)" >&2; exit 2; }
command -v gcc >/dev/null || { echo "gcc is not installed (apt-get install -y gcc)" >&2; exit 2; }
mvn -q -B -DskipTests package >/dev/null
for tool in fixedrate wsload; do
  if [ ! -x "target/$tool" ] || [ "loadtest/$tool.c" -nt "target/$tool" ]; then
    gcc -O2 -Wall -Wextra -o "target/$tool" "loadtest/$tool.c" -lm
  fi
done
exec python3 bench/entry.py "$@"
