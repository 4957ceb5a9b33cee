package io.orderentry.bench.persistence;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The CPU time of every local {@code postgres} process (backends, WAL writer, checkpointer, autovacuum), from
 * {@code /proc/<pid>/stat}, for a benchmark that runs the server on the same machine. Linux only; processes that end
 * between two readings take their time with them, so read it around a window in which the server's processes stay.
 */
final class PostgresCpu {

    /** Clock ticks per second of {@code /proc/<pid>/stat}'s times: 100 on every Linux this runs on. */
    private static final long TICKS_PER_SECOND = 100;

    private PostgresCpu() {
    }

    /** @return user plus system ticks of all processes named {@code postgres} */
    static long ticks() {
        try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
            return processes.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
                    .mapToLong(PostgresCpu::postgresTicks).sum();
        } catch (final IOException e) {
            throw new IllegalStateException("cannot list /proc to read PostgreSQL's CPU time", e);
        }
    }

    static double micros(final long ticks) {
        return ticks * 1e6 / TICKS_PER_SECOND;
    }

    private static long postgresTicks(final Path process) {
        final String stat;
        try {
            stat = Files.readString(process.resolve("stat"));
        } catch (final IOException e) {
            return 0; // the process ended after the listing: its time is gone from every reading alike
        }
        final int open = stat.indexOf('(');
        final int close = stat.lastIndexOf(')');
        if (open < 0 || close < 0 || !stat.substring(open + 1, close).equals("postgres")) {
            return 0;
        }
        final String[] fields = stat.substring(close + 2).split(" ");
        // fields[0] is the state (field 3 of proc(5)); utime and stime are fields 14 and 15
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }
}
