package io.orderentry.app;

import io.orderentry.cluster.StateSnapshots;
import io.orderentry.journal.JournalFormat;
import io.orderentry.journal.JournalPosition;
import io.orderentry.snapshot.ServiceState;
import io.orderentry.snapshot.SnapshotHeader;
import io.orderentry.snapshot.SnapshotStore;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Cluster mode's snapshots in the single node's format: the same header (the command sequence as the journal
 * sequence, the configuration the commands were executed under) and the same state (engine, order view, market data),
 * written by the same {@link SnapshotStore} straight into Aeron's snapshot, and restored from a file the clustered
 * service receives it into (staging under the member's directory, deleted once loaded).
 */
final class ClusterSnapshots implements StateSnapshots {

    private final SnapshotStore store;
    private final Path directory;
    private final Supplier<ServiceState> state;
    private final LongSupplier lastEventSequence;
    private final LongSupplier persistedThrough;
    private final List<String> instruments;
    private final Map<String, String> configuration;
    private final Function<Map<String, String>, List<String>> differences;

    ClusterSnapshots(final Path directory, final Supplier<ServiceState> state, final LongSupplier lastEventSequence,
                     final LongSupplier persistedThrough, final List<String> instruments,
                     final Map<String, String> configuration,
                     final Function<Map<String, String>, List<String>> differences) {
        this.directory = directory;
        this.store = new SnapshotStore(directory, 1);
        this.state = state;
        this.lastEventSequence = lastEventSequence;
        this.persistedThrough = persistedThrough;
        this.instruments = instruments;
        this.configuration = configuration;
        this.differences = differences;
    }

    @Override
    public void write(final long commandSequence, final long timestampMicros, final OutputStream out)
            throws IOException {
        final SnapshotHeader header = new SnapshotHeader(new JournalPosition(1, JournalFormat.SEGMENT_HEADER_SIZE,
                commandSequence, timestampMicros), lastEventSequence.getAsLong(), persistedThrough.getAsLong(),
                System.currentTimeMillis(), instruments, configuration);
        SnapshotStore.writeTo(header, state.get(), out);
    }

    @Override
    public Path receive() throws IOException {
        Files.createDirectories(directory);
        return Files.createTempFile(directory, "received-", ".snap");
    }

    @Override
    public long[] restore(final Path file) throws IOException {
        final SnapshotHeader header = store.verify(file);
        final String incompatible = header.incompatibility(instruments, differences);
        if (incompatible != null) {
            throw new IOException("the cluster's snapshot was written under another configuration: " + incompatible);
        }
        store.read(file, state.get());
        return new long[] {header.position().sequence(), header.position().timestampMicros()};
    }
}
