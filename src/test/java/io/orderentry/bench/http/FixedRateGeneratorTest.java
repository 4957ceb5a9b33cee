package io.orderentry.bench.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The C load generator {@code loadtest/fixedrate.c}, compiled with the warnings that must stay clean, against the
 * JSON-only server in this process: every request due in the recorded part is sent and answered, and its one
 * {@code fixedrate} line parses; against a port where nothing listens it fails with a message. Skipped without
 * {@code gcc}.
 */
class FixedRateGeneratorTest {

    private static final Path SOURCE = Path.of("loadtest/fixedrate.c");
    private static final List<String> FIELDS = List.of("rate", "seconds", "connections", "sent", "answered", "non2xx",
            "errors", "p50_us", "p90_us", "p99_us", "p999_us", "max_us", "cpu_user_s", "cpu_sys_s",
            "cpu_us_per_request");

    @TempDir
    static Path dir;

    /** The compiled generator; null without gcc. */
    private static Path binary;

    /** What a run of the binary printed and its exit status. */
    private record Run(int exit, String out, String err) {
    }

    @BeforeAll
    static void compile() throws Exception {
        if (!onPath("gcc")) {
            return;   // each test says so (an assumption failing here would hide the tests and the reason)
        }
        final Path compiled = dir.resolve("fixedrate");
        final Run gcc = run(List.of("gcc", "-std=gnu11", "-O2", "-Wall", "-Wextra", "-Werror", "-o",
                compiled.toString(), SOURCE.toString()), 60);
        assertEquals(0, gcc.exit(), "fixedrate.c compiles without warnings: " + gcc.err());
        binary = compiled;
    }

    @BeforeEach
    void needsGcc() {
        assumeTrue(binary != null, "gcc is not on PATH: the C load generator cannot be built here");
    }

    @Test
    void sendsEveryDueRequestAndGetsEveryAnswerFromTheJsonServer() throws Exception {
        final int port = freePort();
        final Run run;
        try (AutoCloseable server = JsonBaselineServer.start(port)) {
            run = run(List.of(binary.toString(), "127.0.0.1", Integer.toString(port), "500", "2", "1", "8"), 30);
        }
        assertEquals(0, run.exit(), "exit status; stderr: " + run.err());
        final String[] lines = run.out().strip().split("\n");
        assertEquals(1, lines.length, "one line on stdout: " + run.out());
        final Map<String, Double> fields = fields(lines[0]);
        assertEquals(500, fields.get("rate"));
        assertEquals(2, fields.get("seconds"));
        assertEquals(8, fields.get("connections"));
        final double expected = 500 * 2;
        assertEquals(expected, fields.get("sent"), expected * 0.01, lines[0]);
        assertEquals(fields.get("sent"), fields.get("answered"), lines[0]);
        assertEquals(0, fields.get("non2xx"), lines[0]);
        assertEquals(0, fields.get("errors"), lines[0]);
        assertTrue(fields.get("p50_us") > 0, "a loopback answer takes some microseconds: " + lines[0]);
        assertTrue(fields.get("p50_us") <= fields.get("p90_us") && fields.get("p90_us") <= fields.get("p99_us")
                && fields.get("p99_us") <= fields.get("p999_us") && fields.get("p999_us") <= fields.get("max_us"),
                "percentiles in order: " + lines[0]);
        assertTrue(fields.get("cpu_user_s") + fields.get("cpu_sys_s") > 0, "its own CPU is measured: " + lines[0]);
        // the two CPU fields have 3 decimals, so their sum is within 1 ms of what cpu_us_per_request was computed from
        assertEquals((fields.get("cpu_user_s") + fields.get("cpu_sys_s")) * 1e6 / fields.get("sent"),
                fields.get("cpu_us_per_request"), 1e3 / fields.get("sent") + 0.01,
                "CPU per request is CPU over requests sent: " + lines[0]);
        assertTrue(run.err().contains("1000 answered (0 non-2xx), 0 errors"), "the summary on stderr: " + run.err());
    }

    @Test
    void failsWithAMessageWhenNothingListens() throws Exception {
        final Run run = run(List.of(binary.toString(), "127.0.0.1", Integer.toString(freePort()), "500", "1", "0",
                "2"), 30);
        assertNotEquals(0, run.exit(), "exit status");
        assertTrue(run.err().contains("cannot connect to 127.0.0.1:"), "says why on stderr: " + run.err());
        assertFalse(run.out().contains("fixedrate "), "no result line: " + run.out());
    }

    /** @return the key=value fields of a {@code fixedrate} line, every one of {@link #FIELDS} and no other */
    private static Map<String, Double> fields(final String line) {
        assertTrue(line.startsWith("fixedrate "), line);
        final Map<String, Double> fields = new LinkedHashMap<>();
        for (final String field : line.substring("fixedrate ".length()).split(" ")) {
            final int eq = field.indexOf('=');
            assertTrue(eq > 0, "key=value: " + field);
            fields.put(field.substring(0, eq), Double.parseDouble(field.substring(eq + 1)));
        }
        assertEquals(FIELDS, new ArrayList<>(fields.keySet()), line);
        return fields;
    }

    private static boolean onPath(final String command) {
        final String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (final String directory : path.split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(directory, command))) {
                return true;
            }
        }
        return false;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** Runs a command to its end, its stdout and stderr into files (neither can fill a pipe and stall it). */
    private static Run run(final List<String> command, final int timeoutSeconds) throws Exception {
        final Path out = Files.createTempFile(dir, "out", ".txt");
        final Path err = Files.createTempFile(dir, "err", ".txt");
        final Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                .start();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError(command + " did not end within " + timeoutSeconds + " s; stderr: "
                    + Files.readString(err, StandardCharsets.UTF_8));
        }
        return new Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }
}
