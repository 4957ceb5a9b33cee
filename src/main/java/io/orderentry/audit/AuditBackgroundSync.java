package io.orderentry.audit;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The audit trail's background sync: one daemon thread ({@code oe-audit-sync}) that forces files off the answer
 * path, in order: in {@link AuditSync#NONE} mode the current file every {@link AuditTrail#WRITE_BACK_BYTES}, and a
 * finished file before closing it. Created on first use; stopped by {@link #stop()}. A failed force or close is
 * recorded here ({@link #failure()}) for the trail to take on its writer thread; nothing is logged here.
 *
 * <p>Threads: the trail's writer thread submits and asks {@link #busy()}; the forces run on {@code oe-audit-sync};
 * {@link #stop()} runs on whichever thread closes the trail.
 */
final class AuditBackgroundSync {

    private volatile ExecutorService background;
    private Future<?> lastBackground;
    private volatile IOException backgroundFailure;

    /** Forces {@code target} in the background; it stays open, for the trail to go on writing. */
    void force(final FileChannel target, final Path name) {
        forceInBackground(target, name, false);
    }

    /** Forces {@code target} in the background, then closes it: a file the trail has moved on from. */
    void forceAndClose(final FileChannel target, final Path name) {
        forceInBackground(target, name, true);
    }

    /** @return whether the last force submitted has not ended yet; writer thread */
    boolean busy() {
        return lastBackground != null && !lastBackground.isDone();
    }

    /** @return the first failed background force or close since {@link #clearFailure()}, or null; any thread */
    IOException failure() {
        return backgroundFailure;
    }

    /** Forgets a failure the trail has dealt with. */
    void clearFailure() {
        backgroundFailure = null;
    }

    /** Forces {@code target} on the background thread, then closes it if asked; a failure stops the trail. */
    private void forceInBackground(final FileChannel target, final Path name, final boolean close) {
        inBackground(() -> {
            try {
                target.force(false);
            } catch (final java.nio.channels.ClosedChannelException e) {
                // closed since (the trail failed, or closed it after forcing it itself): nothing left to force
            } catch (final IOException e) {
                backgroundFailure = new IOException("forcing " + name + " in the background failed: "
                        + e.getMessage(), e);
            } finally {
                if (close) {
                    closeRecordingFailure(target, name);
                }
            }
        });
    }

    private void closeRecordingFailure(final FileChannel target, final Path name) {
        try {
            target.close();
        } catch (final IOException e) {
            if (backgroundFailure == null) {
                backgroundFailure = new IOException("closing " + name + " failed: " + e.getMessage(), e);
            }
        }
    }

    private void inBackground(final Runnable task) {
        ExecutorService executor = background;
        if (executor == null) {
            executor = Executors.newSingleThreadExecutor(runnable -> {
                final Thread thread = new Thread(runnable, "oe-audit-sync");
                thread.setDaemon(true);
                return thread;
            });
            background = executor;
        }
        lastBackground = executor.submit(task);
    }

    /** Waits until every background force has ended, and stops the background thread. */
    void stop() {
        final ExecutorService executor = background;
        if (executor == null) {
            return;
        }
        background = null;
        executor.shutdown();
        boolean interrupted = false;
        while (true) {
            try {
                if (executor.awaitTermination(1, TimeUnit.SECONDS)) {
                    break;
                }
            } catch (final InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
