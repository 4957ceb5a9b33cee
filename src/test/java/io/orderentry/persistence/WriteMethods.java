package io.orderentry.persistence;

import io.orderentry.instrument.Instrument;
import java.util.List;

/**
 * Opens {@link PersistenceService} with either way of writing batches, so that the benchmark can
 * compare them through the same consumer: {@code copy} (the production {@link PostgresSink}) or
 * {@code insert} (multi-row INSERT statements, {@link InsertSink}).
 */
public final class WriteMethods {

    private WriteMethods() {
    }

    /** @param method {@code copy} or {@code insert} */
    public static PersistenceService open(final DatabaseConfig config, final List<Instrument> instruments,
                                          final String method) {
        return switch (method) {
            case "copy" -> PersistenceService.open(config, instruments, PostgresSink::new);
            case "insert" -> PersistenceService.open(config, instruments, InsertSink::new);
            default -> throw new IllegalArgumentException("write method must be copy or insert, was " + method);
        };
    }
}
