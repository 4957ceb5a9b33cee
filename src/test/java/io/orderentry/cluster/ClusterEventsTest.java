package io.orderentry.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.aeron.cluster.client.ClusterEvent;
import io.aeron.exceptions.AeronException;
import org.agrona.concurrent.AgentTerminationException;
import org.junit.jupiter.api.Test;

/** Which of Aeron's reports are the expected events of a failover, logged at WARN, and which are errors. */
class ClusterEventsTest {

    @Test
    void aLeaderHeartbeatTimeoutIsAnExpectedEventNamedWithoutAeronsCategoryPrefix() {
        assertEquals("leader heartbeat timeout", ClusterEvents.expected(new ClusterEvent("leader heartbeat timeout")));
    }

    @Test
    void anInactiveFollowerQuorumIsAnExpectedEventToo() {
        assertEquals("inactive follower quorum", ClusterEvents.expected(new ClusterEvent("inactive follower quorum")));
    }

    @Test
    void anAeronExceptionOfTheErrorOrFatalCategoryIsAnError() {
        assertNull(ClusterEvents.expected(new AeronException("archive gone", AeronException.Category.ERROR)));
        assertNull(ClusterEvents.expected(new AeronException("cannot load snapshot", AeronException.Category.FATAL)));
    }

    @Test
    void anythingThatIsNotAnAeronWarningIsAnError() {
        assertNull(ClusterEvents.expected(new AgentTerminationException("service container stopped")));
        assertNull(ClusterEvents.expected(new IllegalStateException("WARN - looks like one")));
    }
}
