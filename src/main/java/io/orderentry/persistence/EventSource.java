package io.orderentry.persistence;

import io.orderentry.pipeline.EngineEvent;
import java.io.IOException;

/**
 * Where the writer takes sequenced engine events from, oldest first: the spool in production, a list in
 * tests. Called only on the persistence writer thread.
 */
interface EventSource {

    /**
     * Copies the next event into {@code into} if one is available now; never waits.
     *
     * @return false when no further event is available yet
     */
    boolean next(EngineEvent into) throws IOException;
}
