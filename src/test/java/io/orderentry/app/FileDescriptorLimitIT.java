package io.orderentry.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.orderentry.testing.ApiClient;
import io.orderentry.testing.ServiceProcess;
import java.io.IOException;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Idle sockets cannot take the file descriptors the journal needs: under a real limit of 700 descriptors
 * ({@code prlimit}), the service lowers its connection cap to leave 512 to its own files, closes connections over it,
 * and keeps journaling through segment rolls while hundreds of idle keep-alive connections are held open. (A socket
 * that never sends a byte is not a connection Vert.x has set up yet: the idle timeout closes it, HttpLimitsTest.)
 */
class FileDescriptorLimitIT {

    @TempDir
    Path dir;

    @Test
    void idleConnectionsOverTheCapAreClosedAndTheJournalKeepsRollingUnderARealDescriptorLimit() throws Exception {
        assumeTrue(new ProcessBuilder("prlimit", "--version").start().waitFor() == 0, "needs prlimit (util-linux)");
        final Map<String, String> env = Map.of("ORDERS_JOURNAL_SEGMENT_BYTES", Integer.toString(1 << 20),
                "ORDERS_SNAPSHOT_ENABLED", "false", "ORDERS_HTTP_IDLE_TIMEOUT_SECONDS", "0");
        try (ServiceProcess service = ServiceProcess.launch(dir, env, "limited", List.of("prlimit", "--nofile=700:700"))) {
            service.awaitReady(Duration.ofSeconds(60));
            assertTrue(service.log().contains("at most 188 connections"), "the cap fits the limit: " + service.log());
            final List<Socket> idle = new ArrayList<>();
            int closedAtAccept = 0;
            try {
                // each connection makes one request and then stays open, idle (keep-alive)
                for (int i = 0; i < 400; i++) {
                    final Socket socket = new Socket("127.0.0.1", service.port());
                    socket.setSoTimeout(5_000);
                    idle.add(socket);
                    try {
                        socket.getOutputStream().write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n".getBytes());
                        final byte[] answer = new byte[256];
                        if (socket.getInputStream().read(answer) == -1) {
                            closedAtAccept++;
                        }
                    } catch (final IOException reset) {
                        closedAtAccept++;
                    }
                }
                // 188 allowed, less the readiness probe's keep-alive connection, which may still be open
                assertTrue(closedAtAccept >= 400 - 188 && closedAtAccept <= 400 - 188 + 2,
                        "connections over the cap are closed, the others answered: " + closedAtAccept);
                // keep 150 idle connections open, close the rest: orders flow beside them and the journal rolls
                while (idle.size() > 150) {
                    idle.remove(idle.size() - 1).close();
                }
                Thread.sleep(500);   // until the server has counted the closes
                final ApiClient api = service.client();
                for (int i = 0; i < 20_000; i++) {
                    final ApiClient.Answer answer = api.post("/api/v1/orders", ApiClient.limit("acct-" + i % 5, null,
                            "BTCUSD", i % 2 == 0 ? "BUY" : "SELL", (i % 2 == 0 ? 40_000 : 60_000) + ".00", "0.01", null));
                    assertEquals(201, answer.status(), answer.body());
                }
                assertEquals(200, api.get("/ready").status(), "the journal kept writing: " + api.get("/ready").body());
            } finally {
                for (final Socket socket : idle) {
                    socket.close();
                }
            }
            try (var files = java.nio.file.Files.list(dir.resolve("journal"))) {
                assertTrue(files.filter(f -> f.toString().endsWith(".journal")).count() > 1, "the journal rolled");
            }
        }
    }
}
