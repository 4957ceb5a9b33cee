package io.orderentry.ops;

import java.util.Map;

/**
 * One part's contribution to {@code /ready}.
 *
 * @param up       rendered as "status": "UP" or "DOWN"
 * @param details  extra figures (lag, state), rendered as they are
 * @param required true if the part being down makes the service not ready (503); false for parts the
 *                 body reports but order entry does not depend on (the database)
 */
public record HealthComponent(String name, boolean up, Map<String, Object> details, boolean required) {

    /** A part that order entry depends on: when it is down, {@code /ready} answers 503. */
    public HealthComponent(final String name, final boolean up, final Map<String, Object> details) {
        this(name, up, details, true);
    }

    /** @return true when this part being down makes {@code /ready} answer 503 */
    public boolean holdsBackReadiness() {
        return required && !up;
    }

    /** @return a part reported in the body whose being down does not by itself make {@code /ready} 503 */
    public static HealthComponent informational(final String name, final boolean up, final Map<String, Object> details) {
        return new HealthComponent(name, up, details, false);
    }
}
