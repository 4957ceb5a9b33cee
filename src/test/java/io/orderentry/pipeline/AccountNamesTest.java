package io.orderentry.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class AccountNamesTest {

    @Test
    void equalAccountsComeBackAsOneInstance() {
        final AccountNames names = new AccountNames();
        final String first = new String("acct-1".toCharArray());
        assertSame(first, names.canonical(first));
        for (int n = 0; n < 100; n++) {
            assertSame(first, names.canonical(new String("acct-1".toCharArray())));
        }
        assertNull(names.canonical(null));
    }

    @Test
    void manyMoreAccountsThanSlotsAreEachAnsweredWithAnEqualString() {
        final AccountNames names = new AccountNames();
        for (int n = 0; n < AccountNames.SLOTS * 4; n++) {
            final String account = "acct-" + n;
            assertEquals(account, names.canonical(account));
        }
        // an account that takes its slot back is again answered with one instance
        final String popular = names.canonical("popular");
        assertSame(popular, names.canonical(new String("popular".toCharArray())));
    }
}
