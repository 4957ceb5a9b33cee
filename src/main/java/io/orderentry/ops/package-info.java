/**
 * The service's operational state: its lifecycle phase and the parts {@code /ready} reports
 * ({@link ServiceStatus}, {@link HealthComponent}), the figures {@code /metrics} serves ({@link MetricsText},
 * {@link ThreadCosts}) and what {@code POST /admin/snapshot} asks for ({@link SnapshotTrigger}). The wiring and the
 * stages write it; the HTTP edge's operations endpoints read it. It depends on no HTTP code, so app and the stages
 * may use it.
 * <p>Written on the main thread (the phase) and by the stages; read from any thread: its fields are volatile or
 * atomic, and {@link MetricsText} registers functions that read them when scraped.
 * <p>Depends on nothing of ours; on Micrometer (and Vert.x's {@code Buffer} for the rendered text).
 */
package io.orderentry.ops;
