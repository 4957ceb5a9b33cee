package io.orderentry.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SequentialTest {

    private final List<String> log = new ArrayList<>();

    private final class Part implements BatchStage<String> {
        private final String name;

        Part(final String name) {
            this.name = name;
        }

        @Override
        public void apply(final String event, final long sequence) {
            log.add(name + ":" + event + "@" + sequence);
        }

        @Override
        public void endOfBatch() {
            log.add(name + ":end");
        }

        @Override
        public void onStart() {
            log.add(name + ":start");
        }

        @Override
        public void onShutdown() {
            log.add(name + ":shutdown");
        }
    }

    @Test
    void shouldPassEachEventThroughEveryPartInOrderBeforeTheNextEvent() throws Exception {
        final Sequential<String> stage = new Sequential<>(new Part("view"), new Part("audit"), new Part("replies"));
        stage.onEvent("a", 1, false);
        stage.onEvent("b", 2, false);
        assertEquals(List.of("view:a@1", "audit:a@1", "replies:a@1", "view:b@2", "audit:b@2", "replies:b@2"), log);
    }

    @Test
    void shouldEndTheBatchOfEveryPartInOrderAfterTheLastEventOnly() throws Exception {
        final Sequential<String> stage = new Sequential<>(new Part("view"), new Part("audit"), new Part("replies"));
        stage.onEvent("a", 1, false);
        stage.onEvent("b", 2, true);
        assertEquals(List.of("view:a@1", "audit:a@1", "replies:a@1", "view:b@2", "audit:b@2", "replies:b@2",
                "view:end", "audit:end", "replies:end"), log);
    }

    @Test
    void shouldStartAndShutDownEveryPartInOrder() {
        final Sequential<String> stage = new Sequential<>(new Part("view"), new Part("audit"));
        stage.onStart();
        stage.onShutdown();
        assertEquals(List.of("view:start", "audit:start", "view:shutdown", "audit:shutdown"), log);
    }

    @Test
    void shouldRefuseToBeBuiltWithoutParts() {
        assertThrows(IllegalArgumentException.class, Sequential::new);
    }
}
