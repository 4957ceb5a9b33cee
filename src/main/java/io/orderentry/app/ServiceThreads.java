package io.orderentry.app;

import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The service's thread factories, so that every thread it starts has a name that {@code top -H}, profilers and thread
 * dumps show: the rings' stage threads (non-daemon, each kept in a list so that a stop can join them) and the daemon
 * threads of the scheduled jobs.
 */
final class ServiceThreads {

    private ServiceThreads() {
    }

    /** @return a factory of the ring's stage threads, each added to {@code created} so that a stop can join them */
    static ThreadFactory stages(final String ring, final List<Thread> created) {
        final AtomicInteger count = new AtomicInteger();
        return runnable -> {
            final Thread thread = new Thread(runnable, ring + "-stage-" + count.getAndIncrement());
            thread.setDaemon(false);
            created.add(thread);
            return thread;
        };
    }

    /** @return a factory of one daemon thread named {@code name}: a scheduled job must not keep the JVM alive */
    static ThreadFactory daemon(final String name) {
        return runnable -> {
            final Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
