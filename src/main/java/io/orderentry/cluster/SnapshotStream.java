package io.orderentry.cluster;

import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import java.io.IOException;
import java.io.OutputStream;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The bytes of the cluster's snapshot, offered into the snapshot's publication in chunks (Aeron fragments them), for
 * {@link EngineService#onTakeSnapshot}. It waits with the service's idle strategy while the publication is back
 * pressured, and fails when the publication is closed, not connected or full.
 *
 * <p>Threads: the service container's thread.
 */
final class SnapshotStream extends OutputStream {

    private static final int CHUNK = 1 << 16;
    private final ExclusivePublication publication;
    private final UnsafeBuffer view = new UnsafeBuffer(new byte[0]);
    private final IdleStrategy idle;
    private final int chunk;
    long bytes;

    /** @param idle the service's own: it ends the wait with AgentTerminationException when the member stops */
    SnapshotStream(final ExclusivePublication publication, final IdleStrategy idle) {
        this.publication = publication;
        this.idle = idle;
        this.chunk = Math.min(CHUNK, publication.maxMessageLength());
    }

    @Override
    public void write(final int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(final byte[] b, final int off, final int len) throws IOException {
        for (int at = off; at < off + len; at += chunk) {
            final int length = Math.min(chunk, off + len - at);
            view.wrap(b, at, length);
            long result;
            while ((result = publication.offer(view, 0, length)) < 0) {
                if (result == Publication.CLOSED || result == Publication.NOT_CONNECTED
                        || result == Publication.MAX_POSITION_EXCEEDED) {
                    throw new IOException("the snapshot's publication refused it: " + result);
                }
                idle.idle();
            }
            idle.reset();
            bytes += length;
        }
    }
}
