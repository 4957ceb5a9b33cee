package io.orderentry.snapshot;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.journal.JournalPosition;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The snapshot files: atomic, checksummed, pruned, and never trusted when damaged. */
class SnapshotStoreTest {

    @TempDir
    Path dir;

    /** A state of some bytes, to see what a snapshot file carries. */
    private static final class Bytes implements SnapshotState {
        private byte[] bytes;

        Bytes(final byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        public void write(final DataOutput out) throws IOException {
            out.writeInt(bytes.length);
            out.write(bytes);
        }

        @Override
        public void restore(final DataInput in) throws IOException {
            bytes = new byte[in.readInt()];
            in.readFully(bytes);
        }
    }

    private static SnapshotHeader header(final long sequence) {
        return new SnapshotHeader(new JournalPosition(1, 16 + sequence * 65, sequence, sequence * 1000), sequence * 3,
                sequence * 2, 1_700_000_000_000L, List.of("BTCUSD", "ETHUSD"), Map.of("engine.dedup.window", "1000"));
    }

    @Test
    void writtenSnapshotReadsBackWithItsHeaderAndState() throws IOException {
        final SnapshotStore store = new SnapshotStore(dir, 3);
        final byte[] state = new byte[100_000];
        Arrays.fill(state, (byte) 7);
        final Path file = store.write(header(42), new Bytes(state));
        assertEquals(42, SnapshotStore.sequenceOf(file));
        assertEquals(header(42), store.verify(file));
        final Bytes restored = new Bytes(null);
        assertEquals(header(42), store.read(file, restored));
        assertArrayEquals(state, restored.bytes);
        try (var files = Files.list(dir)) {
            assertEquals(List.of(file), files.toList(), "no temporary file is left behind");
        }
    }

    @Test
    void pruningKeepsTheNewestAndTheOnesAskedFor() throws IOException {
        final SnapshotStore store = new SnapshotStore(dir, 2);
        final List<Path> written = new java.util.ArrayList<>();
        for (final long sequence : new long[] {5, 9, 12, 30}) {
            written.add(store.write(header(sequence), new Bytes(new byte[] {1})));
        }
        assertEquals(4, store.list().size(), "writing deletes nothing");
        assertEquals(List.of(written.get(3), written.get(2), written.get(0)), store.prune(java.util.Set.of(written.get(0))));
        assertEquals(List.of(30L, 12L, 5L), store.list().stream().map(SnapshotStore::sequenceOf).toList());
        store.prune(java.util.Set.of());
        assertEquals(List.of(30L, 12L), store.list().stream().map(SnapshotStore::sequenceOf).toList());
    }

    @Test
    void anyDamagedByteOrMissingTailIsDetectedBeforeAnyStateIsRead() throws IOException {
        final SnapshotStore store = new SnapshotStore(dir, 3);
        final Path file = store.write(header(8), new Bytes(new byte[5_000]));
        final byte[] good = Files.readAllBytes(file);
        for (final int at : new int[] {0, 9, 60, good.length / 2, good.length - 5, good.length - 1}) {
            final byte[] bad = good.clone();
            bad[at] ^= 0x10;
            Files.write(file, bad);
            assertThrows(IOException.class, () -> store.verify(file), "byte " + at + " flipped");
        }
        for (final int length : new int[] {0, 3, 40, good.length / 2, good.length - 1}) {
            Files.write(file, Arrays.copyOf(good, length));
            assertThrows(IOException.class, () -> store.verify(file), "cut at " + length);
        }
    }

    @Test
    void newestUsableSkipsACorruptNewestAndOneThatIsRefused() throws IOException {
        final SnapshotStore store = new SnapshotStore(dir, 5);
        store.write(header(10), new Bytes(new byte[] {1}));
        store.write(header(20), new Bytes(new byte[] {2}));
        final Path newest = store.write(header(30), new Bytes(new byte[] {3}));
        final byte[] bytes = Files.readAllBytes(newest);
        Files.write(newest, Arrays.copyOf(bytes, bytes.length - 2));
        assertEquals(20, store.newestUsable(h -> null).header().position().sequence());
        assertEquals(10, store.newestUsable(h -> h.position().sequence() > 15 ? "too new" : null).header()
                .position().sequence());
        assertNull(store.newestUsable(h -> "never"));
        Files.delete(store.list().get(0));
        Files.delete(store.list().get(0));
        Files.delete(store.list().get(0));
        assertNull(store.newestUsable(h -> null), "an empty directory has none");
    }

    @Test
    void stateThatReadsMoreOrLessThanWasWrittenIsAFormatMismatch() throws IOException {
        final SnapshotStore store = new SnapshotStore(dir, 3);
        final Path file = store.write(header(3), new Bytes(new byte[] {1, 2, 3, 4}));
        assertThrows(IOException.class, () -> store.read(file, new SnapshotState() {
            @Override
            public void write(final DataOutput out) {
            }

            @Override
            public void restore(final DataInput in) throws IOException {
                in.readInt();   // reads the length only
            }
        }));
        assertThrows(IOException.class, () -> store.read(file, new SnapshotState() {
            @Override
            public void write(final DataOutput out) {
            }

            @Override
            public void restore(final DataInput in) throws IOException {
                in.readFully(new byte[64]);
            }
        }));
    }

    @Test
    void headerNamesTheIncompatibleInstrumentLayout() {
        final SnapshotHeader header = header(1);
        assertNull(header.incompatibility(List.of("BTCUSD", "ETHUSD", "SOLUSD"), recorded -> List.of()));
        assertTrue(header.incompatibility(List.of("ETHUSD", "BTCUSD"), recorded -> List.of()).contains("same order"));
        assertTrue(header.incompatibility(List.of("BTCUSD"), recorded -> List.of()).contains("not the first"));
        assertTrue(header.incompatibility(List.of("BTCUSD", "ETHUSD"), recorded -> List.of("tick changed"))
                .contains("tick changed"));
    }
}
