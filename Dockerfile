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
COPY bin/order-entry /app/bin/order-entry

ENV ORDERS_HTTP_PORT=8080 \
    ORDERS_JOURNAL_DIR=/app/data/journal \
    ORDERS_AUDIT_DIR=/app/data/audit \
    ORDERS_SNAPSHOT_DIR=/app/data/snapshots \
    ORDERS_PERSISTENCE_SPOOL_DIR=/app/data/spool \
    ORDERS_AUTH_KEYS_FILE=/app/data/keys/keys
# JVM flags: bin/order-entry, the README's run command too, holds them and says why each (heap 4 GiB: what the
# default limits need with the books full, twice for the snapshot writer's copy; G1 with a 24 MB young generation;
# concurrent refinement at once on Java 17-19). ORDER_ENTRY_HEAP sets the heap; JAVA_OPTS adds flags after them.
ENV JAVA_OPTS=""

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
# the script execs java, so java runs as PID 1, receives SIGTERM itself and drains before exiting.
ENTRYPOINT ["/app/bin/order-entry"]
