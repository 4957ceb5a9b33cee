package io.orderentry.snapshot;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.util.concurrent.locks.LockSupport;

/**
 * Writes to the file and forces it every {@value #FORCE_EVERY_BYTES} bytes, so that a snapshot of hundreds of
 * megabytes never leaves more than that in dirty pages: the kernel would otherwise throttle every writer of the
 * process (the journal among them) while it writes them back, and the final force would hold the disk for
 * seconds ahead of the journal's fsyncs. When paced, sleeps whenever it is ahead of the given rate (checked at
 * each write, which SnapshotStore's buffer makes 1 MiB), so that the walk over the state and the disk writes are spread
 * out instead of taking a core, the shared caches and the disk queue for a second or two at a time.
 *
 * <p>Threads: the one that writes the snapshot ({@link SnapshotStore#write}).
 */
final class ForcingOutput extends OutputStream {

    /** How many bytes are written between forces. */
    private static final long FORCE_EVERY_BYTES = 16L << 20;

    private final FileChannel channel;
    private final OutputStream out;
    private final long bytesPerSecond;
    private final long started = System.nanoTime();
    private long written;
    private long unforced;

    ForcingOutput(final FileChannel channel, final long bytesPerSecond) {
        this.channel = channel;
        this.out = Channels.newOutputStream(channel);
        this.bytesPerSecond = bytesPerSecond;
    }

    @Override
    public void write(final int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(final byte[] b, final int off, final int len) throws IOException {
        out.write(b, off, len);
        unforced += len;
        written += len;
        if (unforced >= FORCE_EVERY_BYTES) {
            channel.force(false);
            unforced = 0;
        }
        if (bytesPerSecond > 0) {
            final long ahead = (long) (written * 1e9 / bytesPerSecond) - (System.nanoTime() - started);
            if (ahead > 1_000_000) {
                LockSupport.parkNanos(ahead);
            }
        }
    }
}
