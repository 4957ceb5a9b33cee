package io.orderentry.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Three cluster members on loopback, each a {@link ServiceProcess} of the real jar in a directory of its own, sharing
 * one secret file and one database: what a cluster test starts, kills and restarts.
 */
public final class ClusterMembers implements AutoCloseable {

    public static final int MEMBERS = 3;

    private final Path work;
    private final Map<String, String> env;
    private final String members;
    private final Path secretFile;
    private final ServiceProcess[] nodes = new ServiceProcess[MEMBERS];
    /** One client per member process: each has an HttpClient with its own selector thread. */
    private final Map<ServiceProcess, ApiClient> clients = new java.util.concurrent.ConcurrentHashMap<>();

    /** @param env every member's settings beyond the cluster's (the database's, the feature under test's) */
    public ClusterMembers(final Path work, final Map<String, String> env) {
        this.work = work;
        this.env = Map.copyOf(env);
        final StringBuilder list = new StringBuilder();
        for (int id = 0; id < MEMBERS; id++) {
            list.append(id == 0 ? "" : "|").append(id);
            for (int endpoint = 0; endpoint < 5; endpoint++) {
                list.append(",127.0.0.1:").append(FreePort.pickForUdp());
            }
        }
        members = list.toString();
        secretFile = work.resolve("cluster-secret");
        try {
            Files.writeString(secretFile, "c2VjcmV0IG9mIHRoZSBjbHVzdGVyIHRlc3QncyBtZW1iZXJzIQ==\n");
            Files.setPosixFilePermissions(secretFile, PosixFilePermissions.fromString("rw-------"));
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts every member and waits until each is ready. */
    public ClusterMembers start(final Duration timeout) {
        for (int id = 0; id < MEMBERS; id++) {
            nodes[id] = launch(id);
        }
        for (final ServiceProcess node : nodes) {
            node.awaitReady(timeout);
        }
        return this;
    }

    /** Starts member {@code id} again (after a kill) and waits until it is ready. */
    public ServiceProcess restart(final int id, final Duration timeout) {
        nodes[id] = launch(id);
        nodes[id].awaitReady(timeout);
        return nodes[id];
    }

    public ServiceProcess node(final int id) {
        return nodes[id];
    }

    /** @return the client of member {@code id}'s current process, made once per process */
    public ApiClient client(final int id) {
        return clients.computeIfAbsent(nodes[id], ServiceProcess::client);
    }

    /** Kills member {@code id} with SIGKILL. */
    public void kill(final int id) {
        nodes[id].kill9();
        nodes[id].close();
        nodes[id] = null;
    }

    /** @return the member that says it leads; fails after 60 s */
    public int leader() {
        final long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            for (int id = 0; id < MEMBERS; id++) {
                try {
                    if (nodes[id] != null && client(id).metric("orders_cluster_leader") == 1) {
                        return id;
                    }
                } catch (final RuntimeException | AssertionError notNow) {
                    // down, or not started yet
                }
            }
            try {
                Thread.sleep(100);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new AssertionError("no member says it leads");
    }

    private ServiceProcess launch(final int id) {
        final Path dir = work.resolve("member-" + id);
        final Map<String, String> memberEnv = new HashMap<>(env);
        memberEnv.put("ORDERS_CLUSTER_MEMBERS", members);
        memberEnv.put("ORDERS_CLUSTER_MEMBER_ID", Integer.toString(id));
        memberEnv.put("ORDERS_CLUSTER_SECRET_FILE", secretFile.toString());
        memberEnv.put("ORDERS_CLUSTER_DIR", dir.resolve("cluster").toString());
        memberEnv.put("ORDERS_JOURNAL_DIR", dir.resolve("journal").toString());
        memberEnv.put("ORDERS_AUDIT_DIR", dir.resolve("audit").toString());
        memberEnv.put("ORDERS_HTTP_INSTANCES", "1");
        try {
            Files.createDirectories(dir);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
        return ServiceProcess.launch(dir, memberEnv, "member-" + id);
    }

    @Override
    public void close() {
        for (final ServiceProcess node : nodes) {
            if (node != null) {
                node.close();
            }
        }
    }
}
