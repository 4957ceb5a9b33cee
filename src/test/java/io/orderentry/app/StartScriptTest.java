package io.orderentry.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bin/order-entry: the README's run command and the image's entry point; the flags it chooses for each Java. */
class StartScriptTest {

    private static final Path SCRIPT = Path.of("bin", "order-entry");

    @Test
    void givesTheMeasuredFlagsAndOnJava17TheRefinementThatShortensYoungPauses() throws Exception {
        final Result run = run(Map.of("JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString()),
                "--jvm-flags");
        assertEquals(0, run.code, run.err);
        for (final String flag : new String[] {"-Xms4g", "-Xmx4g", "-Xmn24m", "-XX:+AlwaysPreTouch", "-XX:+UseG1GC",
                "-XX:+PerfDisableSharedMem", "-XX:+ExitOnOutOfMemoryError"}) {
            assertTrue(run.out.contains(flag), flag + " in " + run.out);
        }
        final int feature = Runtime.version().feature();
        assertEquals(feature < 20, run.out.contains("-XX:G1ConcRefinementGreenZone=0"), "Java " + feature + ": " + run.out);
    }

    @Test
    void leavesOutTheFlagsLaterJavasNoLongerKnowAndTakesTheHeapFromTheEnvironment(@TempDir final Path dir)
            throws Exception {
        final Path java21 = fakeJava(dir, "21");
        final Result run = run(Map.of("JAVA", java21.toString(), "ORDER_ENTRY_HEAP", "1g"), "--jvm-flags");
        assertEquals(0, run.code, run.err);
        assertTrue(run.out.contains("-Xms1g -Xmx1g"), run.out);
        assertFalse(run.out.contains("G1ConcRefinement"), "Java 21 refuses them at start: " + run.out);
    }

    @Test
    void runsTheJarInItsOwnProcessWithTheFlagsThenJavaOptsThenTheArguments(@TempDir final Path dir) throws Exception {
        final Path java = fakeJava(dir, "17");
        final Path jar = Files.writeString(dir.resolve("service.jar"), "");
        final Result run = run(Map.of("JAVA", java.toString(), "ORDER_ENTRY_JAR", jar.toString(),
                "JAVA_OPTS", "-Dmine=1"), "keys", "list");
        assertEquals(0, run.code, run.err);
        final String args = run.out.trim();
        assertTrue(args.startsWith("-Xms4g"), args);
        assertTrue(args.endsWith("-Dmine=1 -jar " + jar + " keys list"), "JAVA_OPTS after the flags: " + args);
    }

    @Test
    void saysHowToBuildWhenThereIsNoJar(@TempDir final Path dir) throws Exception {
        final Result run = run(Map.of("JAVA", fakeJava(dir, "17").toString(),
                "ORDER_ENTRY_JAR", dir.resolve("missing.jar").toString()));
        assertEquals(2, run.code);
        assertTrue(run.err.contains("mvn -q -DskipTests package"), run.err);
    }

    /** A stand-in for java that answers -XshowSettings with {@code version} and otherwise prints its arguments. */
    private static Path fakeJava(final Path dir, final String version) throws IOException {
        final Path java = dir.resolve("java-" + version);
        Files.writeString(java, "#!/bin/sh\n"
                + "case \"$1\" in -XshowSettings*) echo '    java.specification.version = " + version + "' >&2; exit 0;; esac\n"
                + "echo \"$*\"\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwx------"));
        return java;
    }

    private record Result(int code, String out, String err) {
    }

    private static Result run(final Map<String, String> env, final String... args) throws Exception {
        final String[] command = new String[args.length + 2];
        command[0] = "sh";
        command[1] = SCRIPT.toString();
        System.arraycopy(args, 0, command, 2, args.length);
        final ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().remove("JAVA_OPTS");
        builder.environment().remove("ORDER_ENTRY_HEAP");
        builder.environment().remove("ORDER_ENTRY_JAR");
        builder.environment().putAll(env);
        final Process process = builder.start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "bin/order-entry did not end");
        return new Result(process.exitValue(), new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
                new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    }
}
