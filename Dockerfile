# syntax=docker/dockerfile:1
# Build stage: Maven with a JDK builds the fat jar (target/order-entry.jar, the pom's finalName).
FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY pom.xml .
RUN mvn -B -q dependency:go-offline || true
COPY src src
COPY db db
RUN mvn -B -q -DskipTests package

# Runtime stage: a slim JRE, a non-root user, the journal, audit trail and snapshots on volumes.
FROM eclipse-temurin:17-jre
RUN apt-get update \
 && apt-get install -y --no-install-recommends curl \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --create-home --home-dir /app orders \
 && mkdir -p /app/data/journal /app/data/audit /app/data/spool /app/data/snapshots /app/data/keys /app/data/cluster \
 && chown -R orders:orders /app/data \
 && chmod 700 /app/data/keys
WORKDIR /app
COPY --from=build /src/target/order-entry.jar /app/order-entry.jar
COPY docker/healthcheck.sh /app/healthcheck.sh

ENV ORDERS_HTTP_PORT=8080 \
    ORDERS_JOURNAL_DIR=/app/data/journal \
    ORDERS_AUDIT_DIR=/app/data/audit \
    ORDERS_SNAPSHOT_DIR=/app/data/snapshots \
    ORDERS_PERSISTENCE_SPOOL_DIR=/app/data/spool \
    ORDERS_AUTH_KEYS_FILE=/app/data/keys/keys
# JVM flags for a latency-sensitive service:
#  -Xms = -Xmx and AlwaysPreTouch: the heap is committed and touched at start, so no page faults or
#    heap resizing show up as latency spikes under load;
#  4 GiB: what the default limits need with the books full (2M resting orders, 1M retained final orders
#    plus up to 1M kept for retries, a 1M dedup window), twice for the snapshot writer's copy: about 3.8 GiB
#    by the rule in README, "Sizing the heap" (the service warns at start when its heap is below it);
#  G1: measured under wrk on the 2-core reference machine, ZGC with a 1 GiB heap ran back-to-back
#    cycles once ~600 MiB were live and throughput fell from 13k to 4k req/s, while G1 held 15-17k req/s
#    (loadtest/RESULTS.md); the matcher itself allocates nothing;
#  -Xmn24m, a small fixed young generation: every young collection copies the state of the orders placed
#    since the previous one, so short, frequent pauses beat G1's own sizing, which chose about 100 MB and
#    paused 18-25 ms (durable p99.9 at 5,000 orders/s: 26-35 ms with -XX:MaxGCPauseMillis=10, 11-17 ms
#    with -Xmn24m; loadtest/RESULTS.md);
#  PerfDisableSharedMem: no hsperfdata mmap writes, which can stall threads on a busy disk;
#  ExitOnOutOfMemoryError: a broken JVM exits and the orchestrator restarts it from the journal.
# Override with JAVA_OPTS.
ENV JAVA_OPTS="-Xms4g -Xmx4g -Xmn24m -XX:+AlwaysPreTouch -XX:+UseG1GC -XX:+PerfDisableSharedMem -XX:+ExitOnOutOfMemoryError"

USER orders
# the API keys on a volume of their own: a new container keeps them (a first start without the file creates it with
# one key for account demo and writes its secret to /app/data/keys/demo-key, readable by this user only, never to the
# log: docker compose exec app cat /app/data/keys/demo-key; more keys:
# docker compose exec app java -jar /app/order-entry.jar keys create --account ACCOUNT)
# /app/data/cluster: a cluster member's log, snapshots and Aeron files (ORDERS_CLUSTER_DIR; docker-compose.cluster.yml)
VOLUME ["/app/data/journal", "/app/data/audit", "/app/data/snapshots", "/app/data/spool", "/app/data/keys", "/app/data/cluster"]
EXPOSE 8080
# /ready answers its status without a key even with ORDERS_AUTH_OPS=admin; healthcheck.sh asks over https when
# ORDERS_TLS_CERT is set (or tls.cert in ORDERS_CONFIG_FILE), over http otherwise, on ORDERS_HTTP_PORT
HEALTHCHECK --interval=5s --timeout=3s --start-period=60s --retries=3 \
  CMD ["sh", "/app/healthcheck.sh"]
# exec replaces the shell, so java runs as PID 1, receives SIGTERM itself and drains before exiting.
ENTRYPOINT ["sh", "-c", "exec java $JAVA_OPTS -jar /app/order-entry.jar \"$@\"", "order-entry"]
