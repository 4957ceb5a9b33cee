package io.orderentry.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.orderentry.testing.ServiceProcess;
import io.orderentry.testing.TestCertificate;
import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The image's health check ({@code docker/healthcheck.sh}, run by the Dockerfile's HEALTHCHECK and the compose files)
 * against the real jar, with the environment the container gives it: it answers healthy over http, and over https
 * once {@code ORDERS_TLS_CERT} is set with a self-signed certificate; asked over http, a TLS service is unhealthy.
 */
class HealthCheckScriptIT {

    private static final Path SCRIPT = Path.of("docker/healthcheck.sh");

    @TempDir
    Path dir;

    @Test
    void theHealthCheckIsHealthyOverHttpAndOverHttpsOnceTlsIsOn() throws Exception {
        try (ServiceProcess plain = ServiceProcess.start(Files.createDirectories(dir.resolve("plain")),
                Map.of("ORDERS_AUTH", "none"), "plain")) {
            assertEquals(0, healthCheck(Map.of("ORDERS_HTTP_PORT", Integer.toString(plain.port()))), plain.log());
        }
        final TestCertificate certificate = TestCertificate.create(dir);
        assumeTrue(certificate != null, "needs the openssl binary to make a certificate at test time");
        final Map<String, String> tls = Map.of("ORDERS_TLS_CERT", certificate.cert().toString(), "ORDERS_TLS_KEY",
                certificate.key().toString());
        final Map<String, String> env = new HashMap<>(tls);
        env.put("ORDERS_AUTH", "none");
        try (ServiceProcess service = ServiceProcess.launch(Files.createDirectories(dir.resolve("tls")), env,
                "tls")) {
            service.awaitReady(Duration.ofSeconds(60), HttpClient.newBuilder()
                    .sslContext(certificate.trustingContext()).connectTimeout(Duration.ofSeconds(1)).build(), "https");
            final Map<String, String> container = new HashMap<>(tls);
            container.put("ORDERS_HTTP_PORT", Integer.toString(service.port()));
            assertEquals(0, healthCheck(container), "https, the self-signed certificate taken as it is");
            assertEquals(1, healthCheck(Map.of("ORDERS_HTTP_PORT", Integer.toString(service.port()))),
                    "without ORDERS_TLS_CERT it asks over http, which a TLS port does not answer");
        }
    }

    /** @return the script's exit status with only {@code env}'s ORDERS_ variables, as in the container */
    private static int healthCheck(final Map<String, String> env) throws IOException, InterruptedException {
        final ProcessBuilder builder = new ProcessBuilder(List.of("sh", SCRIPT.toString())).redirectErrorStream(true);
        builder.environment().keySet().removeIf(key -> key.startsWith("ORDERS_"));
        builder.environment().put("ORDERS_HTTP_HOST", "127.0.0.1");
        builder.environment().putAll(env);
        final Process process = builder.start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("the health check did not end: " + output);
        }
        return process.exitValue();
    }
}
