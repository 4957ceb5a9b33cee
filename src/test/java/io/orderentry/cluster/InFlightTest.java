package io.orderentry.cluster;

import io.orderentry.pipeline.CommandType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class InFlightTest {

    private final InFlight inFlight = new InFlight();
    private final List<Long> lost = new ArrayList<>();

    @Test
    void aCommandThatComesBackIsNotLostAndNeitherAreTheOnesSentAfterIt() {
        inFlight.sent(1, 0, 5, CommandType.PLACE);
        inFlight.sent(2, 0, 5, CommandType.CANCEL);
        inFlight.seen(1, 0, s -> lost.add(s.requestId()));
        assertEquals(List.of(), lost);
        assertEquals(1, inFlight.size());
    }

    @Test
    void theCommandsPassedOverByALaterOneOfThisMemberAreLost() {
        inFlight.sent(1, 0, 5, CommandType.PLACE);
        inFlight.sent(1, 1, 5, CommandType.PLACE);   // the same request id on another event loop
        inFlight.sent(2, 0, 6, CommandType.AMEND);
        inFlight.seen(2, 0, s -> lost.add(s.requestId() * 10 + s.replyTo()));
        assertEquals(List.of(10L, 11L), lost);
        assertEquals(0, inFlight.size());
    }

    @Test
    void aCommandWhoseOfferFailedIsTakenBackUnlessANewTermAnsweredItFirst() {
        final InFlight.Sent refused = inFlight.sent(1, 0, 5, CommandType.PLACE);
        assertEquals(true, inFlight.withdraw(refused));
        assertEquals(0, inFlight.size());
        final InFlight.Sent overtaken = inFlight.sent(2, 0, 5, CommandType.PLACE);
        inFlight.newTerm(6, s -> lost.add(s.requestId()));
        assertEquals(false, inFlight.withdraw(overtaken), "already answered: the ingress must not answer it again");
        assertEquals(List.of(2L), lost);
    }

    @Test
    void aNewTermLosesWhatWasSentInEarlierTermsOnly() {
        inFlight.sent(1, 0, 5, CommandType.PLACE);
        inFlight.sent(2, 0, 5, CommandType.PLACE);
        inFlight.sent(3, 0, 6, CommandType.PLACE);   // sent to the new leader already
        inFlight.newTerm(6, s -> lost.add(s.requestId()));
        assertEquals(List.of(1L, 2L), lost);
        assertEquals(1, inFlight.size());
        inFlight.newTerm(6, s -> lost.add(s.requestId()));
        assertEquals(2, lost.size(), "the term's own commands stay");
    }
}
