package io.orderentry.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class AsciiCopyTest {

    @Test
    void copiesAsciiUpToTheCapacityAtTheOffsetAndRefusesWhatDoesNotFit() {
        final byte[] target = new byte[16];
        assertEquals(4, AsciiCopy.copy("c-42", target, 8, 8));
        assertEquals("c-42", new String(target, 8, 4, StandardCharsets.US_ASCII));
        assertEquals(8, AsciiCopy.copy("12345678", target, 0, 8), "exactly the capacity fits");
        assertEquals(0, AsciiCopy.copy("", target, 0, 8));
        assertEquals(-1, AsciiCopy.copy("123456789", target, 0, 8), "one over the capacity");
        assertEquals(-1, AsciiCopy.copy("caf\u00e9", target, 0, 8), "not ASCII");
    }
}
