package io.orderentry.cluster;

import io.orderentry.account.CancelAllAfter;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertNotNull;

/** What armings of a dead man's switch were answered, in order: "armed MICROS", or the error code. */
final class SwitchAnswer implements CancelAllAfter.Outcome {

    final LinkedBlockingQueue<String> answers = new LinkedBlockingQueue<>();

    @Override
    public void armed(final long triggerAtMicros) {
        answers.add("armed " + triggerAtMicros);
    }

    @Override
    public void failed(final String code, final String message) {
        answers.add(code);
    }

    /** @return the next answer, waiting up to 10 s for it */
    String await() throws InterruptedException {
        final String answer = answers.poll(10, TimeUnit.SECONDS);
        assertNotNull(answer, "answered");
        return answer;
    }
}
