package io.orderentry.audit;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * Reads the lines of a file from the last to the first, in chunks from the end, so that finding the newest
 * records of a large file reads only its tail. The file must end with {@code '\n'}. Used on the starting
 * thread only.
 */
final class ReverseLineReader implements AutoCloseable {

    private static final int CHUNK = 64 * 1024;

    private final FileChannel channel;
    /** window[0, windowLength) holds the file's unread bytes [windowStart, windowStart + windowLength). */
    private byte[] window = new byte[CHUNK];
    private int windowLength;
    private long windowStart;
    private byte[] line = new byte[1024];
    private int lineLength;

    ReverseLineReader(final Path file) throws IOException {
        channel = FileChannel.open(file, StandardOpenOption.READ);
        windowStart = channel.size();
    }

    /**
     * Moves to the previous line (the last one on the first call).
     *
     * @return false once the first line has been returned
     */
    boolean previous() throws IOException {
        if (windowLength == 0 && windowStart == 0) {
            return false;
        }
        if (windowLength == 0) {
            readMore();
        }
        if (window[windowLength - 1] == '\n') {
            windowLength--;
        }
        while (true) {
            for (int i = windowLength - 1; i >= 0; i--) {
                if (window[i] == '\n') {
                    take(i + 1);
                    return true;
                }
            }
            if (windowStart == 0) {
                take(0);
                return true;
            }
            readMore();
        }
    }

    /** @return the array holding the current line from offset 0, without its end; valid until {@link #previous()} */
    byte[] lineBytes() {
        return line;
    }

    /** @return the current line's length in bytes */
    int lineLength() {
        return lineLength;
    }

    private void take(final int from) {
        lineLength = windowLength - from;
        if (line.length < lineLength) {
            line = new byte[Math.max(lineLength, 2 * line.length)];
        }
        System.arraycopy(window, from, line, 0, lineLength);
        windowLength = from;
    }

    /** Loads the chunk before the window in front of it. */
    private void readMore() throws IOException {
        final int chunk = (int) Math.min(CHUNK, windowStart);
        if (window.length < windowLength + chunk) {
            window = Arrays.copyOf(window, Math.max(window.length * 2, windowLength + chunk));
        }
        System.arraycopy(window, 0, window, chunk, windowLength);
        final ByteBuffer target = ByteBuffer.wrap(window, 0, chunk);
        long at = windowStart - chunk;
        while (target.hasRemaining()) {
            final int read = channel.read(target, at);
            if (read < 0) {
                throw new IOException("the file shrank while it was read backwards");
            }
            at += read;
        }
        windowStart -= chunk;
        windowLength += chunk;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
