package io.orderentry.cluster;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;

/**
 * The service's state as one file of the snapshot format ({@code io.orderentry.snapshot.SnapshotStore}: header,
 * engine, order view, market data, checksum), which a cluster snapshot carries byte for byte. Implemented where the
 * state lives ({@code app}); called on the cluster's service thread.
 */
public interface StateSnapshots {

    /**
     * Writes the state as it is after command {@code commandSequence} into {@code out} (the cluster's snapshot), in the
     * bytes of a snapshot file; the caller has made sure that nothing changes it meanwhile and that every consumer of
     * the output ring has applied every event.
     */
    void write(long commandSequence, long timestampMicros, OutputStream out) throws IOException;

    /** @return a new file to receive a snapshot's bytes into */
    Path receive() throws IOException;

    /**
     * Checks {@code file} and restores the state from it into the engine, the order view and the market data, which
     * must be empty.
     *
     * @return {command sequence, timestamp in microseconds} of the snapshot
     * @throws IOException when the file is damaged or was written under another configuration
     */
    long[] restore(Path file) throws IOException;
}
