package io.orderentry.cluster;

import io.aeron.archive.client.AeronArchive;
import io.aeron.cluster.client.AeronCluster;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.security.AuthenticationException;
import io.aeron.security.CredentialsSupplier;
import io.aeron.security.NullCredentialsSupplier;
import io.orderentry.testing.FreePort;
import io.orderentry.testing.ServiceProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A member of a cluster (the real jar, a cluster of one on loopback) admits to its Aeron ports only clients that prove
 * they know the members' secret: a cluster client or an archive client without it, or with another, is refused at
 * connect; one with it connects. A member without a secret refuses to start.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClusterAuthenticationIT {

    private static final String SECRET = "dGhlIHNlY3JldCB0aGUgbWVtYmVycyBvZiB0aGlzIHRlc3Qgc2hhcmU=";

    @TempDir
    static Path work;

    private ServiceProcess member;
    private MediaDriver driver;
    private String members;
    private int ingressPort;
    private int archivePort;

    @BeforeAll
    void startMember() throws IOException {
        ingressPort = FreePort.pickForUdp();
        archivePort = FreePort.pickForUdp();
        members = "0,127.0.0.1:" + ingressPort + ",127.0.0.1:" + FreePort.pickForUdp() + ",127.0.0.1:"
                + FreePort.pickForUdp() + ",127.0.0.1:" + FreePort.pickForUdp() + ",127.0.0.1:" + archivePort;
        final Path secret = work.resolve("cluster-secret");
        Files.writeString(secret, SECRET + "\n");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
        final Map<String, String> env = env("member");
        env.put("ORDERS_CLUSTER_SECRET_FILE", secret.toString());
        member = ServiceProcess.launch(work.resolve("member"), env, "member");
        member.awaitReady(Duration.ofSeconds(120));
        driver = MediaDriver.launch(new MediaDriver.Context()
                .aeronDirectoryName(work.resolve("client-aeron").toString())
                .threadingMode(ThreadingMode.SHARED)
                .dirDeleteOnStart(true)
                .dirDeleteOnShutdown(true));
    }

    private Map<String, String> env(final String name) throws IOException {
        final Path dir = Files.createDirectories(work.resolve(name));
        final Map<String, String> env = new HashMap<>();
        env.put("ORDERS_CLUSTER_MEMBERS", members);
        env.put("ORDERS_CLUSTER_MEMBER_ID", "0");
        env.put("ORDERS_CLUSTER_DIR", dir.resolve("cluster").toString());
        env.put("ORDERS_HTTP_INSTANCES", "1");
        return env;
    }

    @AfterAll
    void stop() {
        if (driver != null) {
            driver.close();
        }
        if (member != null) {
            member.close();
        }
    }

    private AeronCluster connectToTheCluster(final CredentialsSupplier credentials) {
        return AeronCluster.connect(new AeronCluster.Context()
                .aeronDirectoryName(driver.aeronDirectoryName())
                .ingressChannel("aeron:udp")
                .ingressEndpoints("0=127.0.0.1:" + ingressPort)
                .egressChannel("aeron:udp?endpoint=127.0.0.1:0")
                .credentialsSupplier(credentials)
                .messageTimeoutNs(TimeUnit.SECONDS.toNanos(10)));
    }

    private AeronArchive connectToTheArchive(final CredentialsSupplier credentials) {
        return AeronArchive.connect(new AeronArchive.Context()
                .aeronDirectoryName(driver.aeronDirectoryName())
                .controlRequestChannel("aeron:udp?endpoint=127.0.0.1:" + archivePort)
                .controlResponseChannel("aeron:udp?endpoint=127.0.0.1:0")
                .credentialsSupplier(credentials)
                .messageTimeoutNs(TimeUnit.SECONDS.toNanos(10)));
    }

    private static ClusterSecret secret(final String text) {
        return ClusterSecret.of(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aClusterClientWithoutTheSecretOrWithAnotherIsRefusedAtConnectAndOneWithItConnects() {
        final double rejectedBefore = member.client().metric("orders_cluster_rejected_clients_total");
        assertThrows(AuthenticationException.class, () -> connectToTheCluster(new NullCredentialsSupplier()).close());
        assertThrows(AuthenticationException.class, () -> connectToTheCluster(new MemberCredentials(
                secret("not the members' secret, though as long as theirs"), ClusterSecret.Purpose.INGRESS, 0))
                .close());
        try (AeronCluster admitted = connectToTheCluster(new MemberCredentials(secret(SECRET),
                ClusterSecret.Purpose.INGRESS, 0))) {
            assertEquals(0, admitted.leaderMemberId(), "connected to the leader");
        }
        assertEquals(rejectedBefore + 2, member.client().metric("orders_cluster_rejected_clients_total"));
    }

    @Test
    void anArchiveClientWithoutTheSecretOrWithAnotherIsRefusedAndOneWithItConnects() {
        final RuntimeException none = assertThrows(RuntimeException.class,
                () -> connectToTheArchive(new NullCredentialsSupplier()).close());
        assertTrue(String.valueOf(none.getMessage()).toLowerCase().contains("authentication"), none.toString());
        final RuntimeException wrong = assertThrows(RuntimeException.class, () -> connectToTheArchive(
                new MemberCredentials(secret("not the members' secret, though as long as theirs"),
                        ClusterSecret.Purpose.ARCHIVE, 0)).close());
        assertTrue(String.valueOf(wrong.getMessage()).toLowerCase().contains("authentication"), wrong.toString());
        try (AeronArchive admitted = connectToTheArchive(new MemberCredentials(secret(SECRET),
                ClusterSecret.Purpose.ARCHIVE, 0))) {
            assertNotEquals(-1, admitted.archiveId());
        }
    }

    @Test
    void aMemberWithoutASecretRefusesToStartNamingTheSetting() throws IOException {
        final Map<String, String> env = env("no-secret");
        env.put("ORDERS_CLUSTER_MEMBERS", members.replace("127.0.0.1:" + ingressPort,
                "127.0.0.1:" + FreePort.pickForUdp()));
        try (ServiceProcess refused = ServiceProcess.launch(work.resolve("no-secret"), env, "no-secret")) {
            assertNotEquals(0, refused.awaitExit(Duration.ofSeconds(60)));
            assertTrue(refused.log().contains("ORDERS_CLUSTER_SECRET_FILE is required in cluster mode"),
                    refused.log());
        }
    }
}
