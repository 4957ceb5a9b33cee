package io.orderentry.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class InlineTextTest {

    @Test
    void holdsAsciiUpToItsCapacityInlineAndGivesItBackEqual() {
        final InlineText text = new InlineText(8);
        text.set("abc-1:.9");
        assertTrue(text.isInline());
        assertEquals(8, text.length());
        assertEquals("abc-1:.9", text.toStringOrNull());
        assertTrue(text.contentEquals(new String("abc-1:.9".toCharArray())));
        assertFalse(text.contentEquals("abc-1:.8"));
        assertFalse(text.contentEquals("abc-1:."));
        final byte[] copy = new byte[10];
        text.copyTo(copy, 2);
        assertEquals("abc-1:.9", new String(copy, 2, 8, java.nio.charset.StandardCharsets.US_ASCII));
    }

    @Test
    void keepsTextThatDoesNotFitAsTheStringItCameAsNeverTruncated() {
        final InlineText text = new InlineText(4);
        final String tooLong = "abcde";
        text.set(tooLong);
        assertFalse(text.isInline());
        assertFalse(text.isNull());
        assertEquals(tooLong, text.toStringOrNull());
        assertTrue(text.contentEquals("abcde"));
        text.set("\u00e9t\u00e9");
        assertFalse(text.isInline());
        assertEquals("\u00e9t\u00e9", text.toStringOrNull());
    }

    @Test
    void nullIsNotEmptyAndClearingForgetsEverything() {
        final InlineText text = new InlineText(4);
        assertTrue(text.isNull());
        assertNull(text.toStringOrNull());
        assertTrue(text.contentEquals(null));
        text.set("");
        assertFalse(text.isNull());
        assertEquals("", text.toStringOrNull());
        assertFalse(text.contentEquals(null));
        text.set("abcdef");
        text.clear();
        assertTrue(text.isNull());
        assertNull(text.toStringOrNull());
        text.set((String) null);
        assertTrue(text.isNull());
    }

    @Test
    void copiesAnotherTextWhetherInlineOrNot() {
        final InlineText from = new InlineText(4);
        final InlineText to = new InlineText(4);
        from.set("ab");
        to.set(from);
        assertEquals("ab", to.toStringOrNull());
        from.set("abcdefg");
        to.set(from);
        assertEquals("abcdefg", to.toStringOrNull());
        from.clear();
        to.set(from);
        assertTrue(to.isNull());
    }
}
