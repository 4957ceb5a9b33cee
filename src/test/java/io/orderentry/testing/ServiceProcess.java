package io.orderentry.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The real jar ({@code target/order-entry.jar}, built by {@code mvn package}) as a child process, for
 * tests that kill it. Output goes to a log file that failures can quote.
 */
public final class ServiceProcess implements AutoCloseable {

    private final Process process;
    private final int port;
    private final Path log;

    private ServiceProcess(final Process process, final int port, final Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /** @return the jar under test; failsafe passes its path, else target/order-entry.jar */
    public static Path jar() {
        final Path jar = Path.of(System.getProperty("orderentry.jar", "target/order-entry.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: run `mvn -B verify` (integration tests need the jar)");
        }
        return jar;
    }

    /** Starts the jar on a free port with the given environment, without waiting for readiness. */
    public static ServiceProcess launch(final Path workDir, final Map<String, String> env, final String name) {
        return launch(workDir, env, name, List.of());
    }

    /** {@link #launch}, the command run under {@code prefix} (e.g. {@code prlimit --nofile=700:700}). */
    public static ServiceProcess launch(final Path workDir, final Map<String, String> env, final String name,
                                        final List<String> prefix) {
        final int port = FreePort.pick();
        final Path log = workDir.resolve(name + ".log");
        final List<String> command = new ArrayList<>(prefix);
        command.addAll(List.of(javaBinary(), "-Xmx512m", "-jar", jar().toAbsolutePath().toString()));
        final ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        final Map<String, String> environment = builder.environment();
        environment.keySet().removeIf(key -> key.startsWith("ORDERS_"));
        final Map<String, String> defaults = new HashMap<>();
        defaults.put("ORDERS_HTTP_HOST", "127.0.0.1");
        defaults.put("ORDERS_HTTP_PORT", Integer.toString(port));
        defaults.put("ORDERS_JOURNAL_DIR", workDir.resolve("journal").toString());
        defaults.put("ORDERS_AUDIT_DIR", workDir.resolve("audit").toString());
        defaults.put("ORDERS_PERSISTENCE_SPOOL_DIR", workDir.resolve("spool").toString());
        defaults.put("ORDERS_DB_URL", "");
        // authentication is tested where a test asks for it (ORDERS_AUTH=keys and createKey); other tests name accounts
        defaults.put("ORDERS_AUTH", "none");
        // tests read a counter right after what moves it; the cached rendering is tested where it is the subject
        defaults.put("ORDERS_HTTP_METRICS_CACHE_MILLIS", "0");
        defaults.putAll(env);
        environment.putAll(defaults);
        try {
            return new ServiceProcess(builder.start(), port, log);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
    }

    /**
     * Runs {@code java -jar order-entry.jar keys create --account ACCOUNT [flags]} against {@code keysFile}, as an
     * operator would.
     *
     * @param flags {@code --read-only} or {@code --admin}, or none
     * @return the secret it printed
     */
    public static String createKey(final Path keysFile, final String account, final String... flags) {
        final List<String> command = new ArrayList<>(List.of(javaBinary(), "-jar", jar().toAbsolutePath().toString(),
                "keys", "create", "--account", account));
        command.addAll(List.of(flags));
        return keysCommand(keysFile, command).strip();
    }

    /** Runs {@code keys revoke KEY_ID} against {@code keysFile}. */
    public static void revokeKey(final Path keysFile, final String keyId) {
        keysCommand(keysFile, List.of(javaBinary(), "-jar", jar().toAbsolutePath().toString(), "keys", "revoke", keyId));
    }

    private static String keysCommand(final Path keysFile, final List<String> command) {
        final ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().keySet().removeIf(key -> key.startsWith("ORDERS_"));
        builder.environment().put("ORDERS_AUTH_KEYS_FILE", keysFile.toAbsolutePath().toString());
        try {
            final Process process = builder.start();
            final java.util.concurrent.CompletableFuture<byte[]> err = java.util.concurrent.CompletableFuture.supplyAsync(
                    () -> {
                        try {
                            return process.getErrorStream().readAllBytes();
                        } catch (final IOException e) {
                            return e.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
                        }
                    });
            final String out = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            if (process.waitFor() != 0) {
                throw new IllegalStateException(command + " exited with " + process.exitValue() + ": "
                        + new String(err.join(), java.nio.charset.StandardCharsets.UTF_8));
            }
            return out;
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Starts the jar and waits until {@code /ready} answers 200. */
    public static ServiceProcess start(final Path workDir, final Map<String, String> env, final String name) {
        final ServiceProcess service = launch(workDir, env, name);
        service.awaitReady(Duration.ofSeconds(60));
        return service;
    }

    /** Waits for {@code /ready} to answer 200; fails with the process log if it exits or times out. */
    public void awaitReady(final Duration timeout) {
        awaitReady(timeout, HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build(), "http");
    }

    /** {@link #awaitReady(Duration)} through {@code client} with {@code scheme} ({@code https} for a TLS service). */
    public void awaitReady(final Duration timeout, final HttpClient client, final String scheme) {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("service exited with " + process.exitValue() + ":\n" + log());
            }
            try {
                final HttpResponse<String> response = client.send(HttpRequest.newBuilder(
                        URI.create(scheme + "://127.0.0.1:" + port + "/ready")).timeout(Duration.ofSeconds(2)).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200) {
                    return;
                }
            } catch (final ConnectException notYet) {
                pause();
            } catch (final IOException notYet) {
                pause();
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            pause();
        }
        throw new IllegalStateException("service not ready after " + timeout + ":\n" + log());
    }

    /** Waits for the process to exit by itself and returns its exit code. */
    public int awaitExit(final Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("service did not exit in " + timeout + ":\n" + log());
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return process.exitValue();
    }

    /** SIGKILL: no shutdown hook, no flush. */
    public void kill9() {
        process.destroyForcibly();
        awaitExit(Duration.ofSeconds(30));
    }

    /** SIGTERM: the graceful path. */
    public int terminate() {
        process.destroy();
        return awaitExit(Duration.ofSeconds(60));
    }

    public int port() {
        return port;
    }

    public long pid() {
        return process.pid();
    }

    public ApiClient client() {
        return new ApiClient(port);
    }

    /** @return everything the process printed so far */
    public String log() {
        try {
            return Files.readString(log);
        } catch (final IOException e) {
            return "(log unreadable: " + e + ")";
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            awaitExit(Duration.ofSeconds(30));
        }
    }

    private static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
