package io.orderentry.cluster;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;

/**
 * Receives a cluster snapshot's bytes as they arrive and separates what {@link EngineService} wrote ahead of the
 * snapshot file, the dead man's switches' section ({@link ClusterSwitches#section}), from the snapshot file itself,
 * which goes on to {@code file}. A snapshot written before the switches were in the log starts with the snapshot file
 * at once: it has no section, and all its bytes go to the file.
 *
 * <p>Not thread safe: the service's thread.
 */
final class SwitchSectionSplitter extends OutputStream {

    /** The most a section may claim: far above what any number of accounts' switches takes. */
    private static final int MAX_SECTION = 1 << 30;

    private final OutputStream file;
    private final byte[] head = new byte[12];
    private int headFilled;
    private byte[] section;
    private int sectionFilled;
    private boolean inFile;

    SwitchSectionSplitter(final OutputStream file) {
        this.file = file;
    }

    @Override
    public void write(final int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(final byte[] bytes, final int offset, final int length) throws IOException {
        int at = offset;
        int left = length;
        while (left > 0) {
            if (inFile) {
                file.write(bytes, at, left);
                return;
            }
            final int n;
            if (section == null) {
                n = Math.min(left, head.length - headFilled);
                System.arraycopy(bytes, at, head, headFilled, n);
                headFilled += n;
                if (headFilled == head.length) {
                    readHead();
                }
            } else {
                n = Math.min(left, section.length - sectionFilled);
                System.arraycopy(bytes, at, section, sectionFilled, n);
                sectionFilled += n;
                inFile = sectionFilled == section.length;
            }
            at += n;
            left -= n;
        }
    }

    private void readHead() throws IOException {
        final ByteBuffer view = ByteBuffer.wrap(head);
        if (view.getLong(0) != ClusterSwitches.MAGIC) {
            file.write(head);   // no section: these are the snapshot file's first bytes
            inFile = true;
            return;
        }
        final int length = view.getInt(8);
        if (length < 0 || length > MAX_SECTION) {
            throw new IOException("the cluster snapshot's dead man's switches claim " + length + " bytes");
        }
        section = new byte[length];
        inFile = length == 0;
    }

    /**
     * Called once every byte has arrived.
     *
     * @return the section's body, or null when the snapshot has none
     * @throws IOException when the snapshot ended inside the section
     */
    byte[] finish() throws IOException {
        if (!inFile && section == null && headFilled > 0) {
            file.write(head, 0, headFilled);   // shorter than a section's head: it was all the file's
            return null;
        }
        if (section != null && sectionFilled < section.length) {
            throw new IOException("the cluster snapshot ended inside its dead man's switches (" + sectionFilled
                    + " of " + section.length + " bytes)");
        }
        return section;
    }

    @Override
    public void flush() throws IOException {
        file.flush();
    }
}
