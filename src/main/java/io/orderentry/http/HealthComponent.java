package io.orderentry.http;

import java.util.Map;

/**
 * One part's contribution to {@code /ready}.
 *
 * @param up      false makes the service not ready
 * @param details extra figures (lag, state), rendered as they are
 */
public record HealthComponent(String name, boolean up, Map<String, Object> details) {
}
