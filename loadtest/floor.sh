#!/usr/bin/env bash
# loadtest/floor.sh [PORT] [DIR]
#
# Starts the durable floor the service is compared with: the JSON-only server's HTTP set-up plus a Disruptor ring
# whose one handler appends each order's body to DIR/floor.log and forces it (fdatasync) at the end of each batch,
# before the answers (src/test/java/io/orderentry/bench/http/DurableFloorServer.java), on 127.0.0.1:PORT (default
# 18082). DIR (default a new temporary directory) should be on the disk the service's journal uses; the file never
# rolls, it grows by about 250 bytes an order. Load it exactly as the service, in the same session.
set -euo pipefail
port="${1:-18082}"
dir="${2:-$(mktemp -d)}"
cd "$(dirname "$0")/.."
mvn -q -B -DskipTests test-compile dependency:build-classpath -Dmdep.outputFile=target/test-cp.txt >/dev/null
exec java -Xms2g -Xmx2g -XX:+UseG1GC -cp "target/test-classes:target/classes:$(cat target/test-cp.txt)" \
  io.orderentry.bench.http.DurableFloorServer "$port" "$dir"
