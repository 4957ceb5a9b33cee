#!/usr/bin/env bash
# bench/dashboard.sh [seconds=300] [rate=2000] [outage_at=100] [outage=90] [out=docs/dashboard.png] [jar=JAR] [keep=0]
# The README's picture of the Grafana dashboard (issue 37): a recorded load run with a PostgreSQL outage in the
# middle, scraped by a real Prometheus and drawn with gnuplot from the dashboard's own queries (bench/dashboard.py).
# Needs root (it stops and starts the local PostgreSQL), prometheus and gnuplot (apt-get install -y prometheus
# gnuplot-nox).
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "bench/dashboard.sh stops and starts PostgreSQL: run it as root" >&2; exit 2; }
command -v prometheus >/dev/null || { echo "prometheus is not installed (apt-get install -y prometheus)" >&2; exit 2; }
command -v gnuplot >/dev/null || { echo "gnuplot is not installed (apt-get install -y gnuplot-nox)" >&2; exit 2; }
command -v gcc >/dev/null || { echo "gcc is not installed (apt-get install -y gcc)" >&2; exit 2; }
case " $* " in *" jar="*) ;; *) mvn -q -B -DskipTests package >/dev/null ;; esac
mkdir -p target
gcc -O2 -Wall -Wextra -o target/fixedrate loadtest/fixedrate.c -lm
exec python3 bench/dashboard.py "$@"
