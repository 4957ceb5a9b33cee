package io.orderentry.http.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A connection's commands that concern an order with a command in flight wait for its answer, in arrival order, while
 * commands of other orders go on; held commands count as waiting.
 */
class OrderEntrySessionTest {

    private static final String[] PLACE = {"c:x"};
    private final OrderEntrySession entry = new OrderEntrySession();
    private final List<String> ran = new ArrayList<>();

    /** A command that, run, resolves its order (as a cancel by clientOrderId does once the place is answered). */
    private Runnable resolving(final String name) {
        return new Runnable() {
            @Override
            public void run() {
                if (entry.holdIfBusy(new String[] {"c:x", "i:1"}, this)) {
                    return;
                }
                ran.add(name);
                entry.sent(new String[] {"c:x", "i:1"});
            }
        };
    }

    @Test
    void commandsOfAnOrderInFlightWaitForItsAnswerInArrivalOrderAndOthersGoOn() {
        entry.sent(PLACE);
        assertTrue(entry.holdIfBusy(PLACE, resolving("amend")));
        assertTrue(entry.holdIfBusy(PLACE, resolving("cancel")));
        assertFalse(entry.holdIfBusy(new String[] {"c:other"}, () -> ran.add("other")), "another order goes on");
        assertEquals(3, entry.waiting(), "the place and the two held behind it");

        entry.answered(PLACE);          // the place's answer went out: the amend runs and goes to the engine
        assertEquals(List.of("amend"), ran);
        assertEquals(2, entry.waiting(), "the amend in flight, the cancel still held");
        entry.answered(new String[] {"c:x", "i:1"});
        assertEquals(List.of("amend", "cancel"), ran, "then the cancel, after the amend's answer");
        entry.answered(new String[] {"c:x", "i:1"});
        assertEquals(0, entry.waiting());
    }

    @Test
    void aHeldCommandAnsweredAtOnceLetsTheNextOneRunInTheSameRelease() {
        entry.sent(PLACE);
        assertTrue(entry.holdIfBusy(PLACE, () -> ran.add("refused at once")));
        assertTrue(entry.holdIfBusy(PLACE, () -> ran.add("refused too")));
        entry.answered(PLACE);
        assertEquals(List.of("refused at once", "refused too"), ran);
        assertEquals(0, entry.waiting());
    }

    @Test
    void aCommandBehindAHeldOneOfTheSameOrderIsHeldEvenWhenNothingOfItIsInFlight() {
        entry.sent(new String[] {"i:1"});
        assertTrue(entry.holdIfBusy(new String[] {"i:1", "c:x"}, () -> ran.add("first")));
        assertTrue(entry.holdIfBusy(new String[] {"c:x"}, () -> ran.add("second")), "behind the first, same order");
        entry.answered(new String[] {"i:1"});
        assertEquals(List.of("first", "second"), ran);
    }
}
