package io.orderentry.cluster;

import io.aeron.Image;
import io.aeron.logbuffer.FragmentHandler;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Loads the cluster snapshot a member starts from, for {@link EngineService#onStart}: reads the snapshot's bytes from
 * the archive's image into a staging file (the dead man's switches' section, which {@link EngineService} writes ahead
 * of the state, separated on the way), restores the state and the switches from them, and deletes the file.
 *
 * <p>Threads: the service's thread, once, at start.
 */
final class SnapshotReceiver {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SnapshotReceiver.class);

    private SnapshotReceiver() {
    }

    /**
     * @return {command sequence, timestamp in microseconds} of the snapshot, as {@link StateSnapshots#restore} says,
     *         and the bytes of its state file
     * @throws UncheckedIOException when the snapshot cannot be received or restored
     */
    static long[] load(final Image image, final StateSnapshots snapshots, final SwitchLog switches) {
        final Path file;
        try {
            file = snapshots.receive();
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot make a file for the cluster's snapshot", e);
        }
        try {
            final byte[] switchSection = copy(image, file);
            final long[] position = snapshots.restore(file);
            if (switchSection != null) {
                switches.restore(switchSection);
            }
            return new long[] {position[0], position[1], Files.size(file)};
        } catch (final IOException e) {
            throw new UncheckedIOException("the cluster's snapshot cannot be restored: " + e.getMessage(), e);
        } finally {
            deleteStaging(file);
        }
    }

    /** @return the switches' section of the snapshot in {@code image}, whose state file goes to {@code file} */
    private static byte[] copy(final Image image, final Path file) {
        try (OutputStream fileOut = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
            final SwitchSectionSplitter out = new SwitchSectionSplitter(fileOut);
            final byte[] chunk = new byte[image.termBufferLength()];
            final IOException[] failed = new IOException[1];
            final FragmentHandler copy = (buffer, offset, length, header) -> {
                buffer.getBytes(offset, chunk, 0, length);
                try {
                    out.write(chunk, 0, length);
                } catch (final IOException e) {
                    failed[0] = e;
                }
            };
            final IdleStrategy idle = new BackoffIdleStrategy();
            while (!image.isEndOfStream()) {
                if (image.isClosed()) {
                    throw new IllegalStateException("the cluster's snapshot ended before its end of stream");
                }
                idle.idle(image.poll(copy, 16));
                if (failed[0] != null) {
                    throw failed[0];
                }
            }
            return out.finish();
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot write the cluster's snapshot to " + file + ": " + e.getMessage(), e);
        }
    }

    private static void deleteStaging(final Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (final IOException e) {
            LOG.warn("cluster: could not delete the snapshot's staging file {}: {}", file, e.toString());
        }
    }
}
