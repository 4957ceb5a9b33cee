#!/usr/bin/env bash
# Journal benchmarks: replay speed of a 5M-record journal, and group-commit fsync behaviour of this disk.
# Usage: bench/journal.sh [records] [replay-runs] [seconds-per-batch-size]
# The journals go to ${JOURNAL_BENCH_DIR:-target/journal-bench} (about 0.5 GB for 5M records), emptied first.
set -euo pipefail
cd "$(dirname "$0")/.."

RECORDS="${1:-5000000}"
RUNS="${2:-5}"
SECONDS_PER_SIZE="${3:-5}"
DIR="${JOURNAL_BENCH_DIR:-target/journal-bench}"

mvn -q -B -DskipTests test-compile dependency:build-classpath -Dmdep.outputFile=target/test-cp.txt
CP="target/test-classes:target/classes:$(cat target/test-cp.txt)"

echo "== replay (java $(java -version 2>&1 | head -1 | cut -d'"' -f2), $(nproc) cores, $DIR on $(df --output=source,fstype "$(dirname "$DIR")" | tail -1))"
java -Xms1g -Xmx1g -cp "$CP" io.orderentry.bench.journal.JournalReplayBenchmark "$DIR/replay" "$RECORDS" "$RUNS"
echo "== append with FSYNC, one write + fsync per batch"
java -Xms256m -Xmx256m -cp "$CP" io.orderentry.bench.journal.JournalFsyncBenchmark "$DIR/fsync" "$SECONDS_PER_SIZE"
