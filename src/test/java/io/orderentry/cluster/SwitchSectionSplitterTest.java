package io.orderentry.cluster;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A cluster snapshot's bytes, in whatever pieces the log delivers them, split into the switches and the file. */
class SwitchSectionSplitterTest {

    private static byte[] fileBytes(final int length) {
        final byte[] bytes = new byte[length];
        new Random(7).nextBytes(bytes);
        return bytes;
    }

    private static byte[] concat(final byte[] a, final byte[] b) {
        final byte[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }

    /** Feeds {@code bytes} in pieces of {@code piece} bytes. */
    private static void feed(final SwitchSectionSplitter splitter, final byte[] bytes, final int piece)
            throws IOException {
        for (int at = 0; at < bytes.length; at += piece) {
            splitter.write(bytes, at, Math.min(piece, bytes.length - at));
        }
    }

    @Test
    void theSectionAndTheFileAreSeparatedWhateverThePiecesTheBytesArriveIn() throws IOException {
        final ClusterSwitches switches = new ClusterSwitches();
        switches.arm("acct-1", 10, "k1", 0, new ClusterSwitches.Timers() {
            @Override
            public void schedule(final long correlationId, final long deadlineMicros) {
            }

            @Override
            public void cancel(final long correlationId) {
            }
        });
        final byte[] section = switches.section();
        final byte[] file = fileBytes(70_000);
        for (final int piece : new int[] {1, 5, 12, 13, 4096, 1 << 16, 1 << 20}) {
            final ByteArrayOutputStream out = new ByteArrayOutputStream();
            final SwitchSectionSplitter splitter = new SwitchSectionSplitter(out);
            feed(splitter, concat(section, file), piece);
            assertArrayEquals(Arrays.copyOfRange(section, 12, section.length), splitter.finish(), "piece " + piece);
            assertArrayEquals(file, out.toByteArray(), "piece " + piece);
        }
    }

    @Test
    void aSnapshotWrittenBeforeTheSwitchesWereInTheLogIsAllFile() throws IOException {
        for (final int length : new int[] {3, 12, 5_000}) {
            final byte[] file = fileBytes(length);
            final ByteArrayOutputStream out = new ByteArrayOutputStream();
            final SwitchSectionSplitter splitter = new SwitchSectionSplitter(out);
            feed(splitter, file, 7);
            assertNull(splitter.finish());
            assertArrayEquals(file, out.toByteArray(), "length " + length);
        }
    }

    @Test
    void aSnapshotThatEndsInsideItsSectionIsRefused() throws IOException {
        final byte[] section = new ClusterSwitches().section();
        final SwitchSectionSplitter splitter = new SwitchSectionSplitter(new ByteArrayOutputStream());
        splitter.write(section, 0, section.length - 1);
        assertThrows(IOException.class, splitter::finish);
        final byte[] lying = section.clone();
        lying[8] = (byte) 0x7F;   // a length of about 2 GB
        assertThrows(IOException.class, () -> new SwitchSectionSplitter(new ByteArrayOutputStream()).write(lying));
    }
}
