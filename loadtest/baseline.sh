#!/usr/bin/env bash
# loadtest/baseline.sh [PORT]
#
# Starts the ceiling the service is compared with: a Vert.x server that only parses the order JSON and
# answers 201 (src/test/java/io/orderentry/bench/http/JsonBaselineServer.java), on 127.0.0.1:PORT
# (default 18081). Load it with the same wrk command as the service, in the same session:
#   ORDERS_LOADTEST_DIR=loadtest wrk -t4 -c50 -d30s -s loadtest/order-submission.lua http://127.0.0.1:18081
set -euo pipefail
port="${1:-18081}"
cd "$(dirname "$0")/.."
mvn -q -B -DskipTests test-compile dependency:build-classpath -Dmdep.outputFile=target/test-cp.txt >/dev/null
exec java -Xms2g -Xmx2g -XX:+UseG1GC -cp "target/test-classes:target/classes:$(cat target/test-cp.txt)" \
  io.orderentry.bench.http.JsonBaselineServer "$port"
