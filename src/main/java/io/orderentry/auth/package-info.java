/**
 * API keys and request budgets: the keys file ({@link KeysFile}: no secret, only its SHA-256; mode rw-------), the
 * keys the service accepts and the check of a presented secret ({@link KeyRing}), token buckets per key and per
 * address ({@link RateLimits}), and the {@code keys create|list|revoke} command ({@link KeysCommand}).
 * <p>{@link KeyRing#authenticate} and {@link RateLimits} are called on the Vert.x event loops and never block. The
 * keys file is reloaded and idle buckets are dropped on oe-keys; the demo key is made on the starting thread;
 * {@link KeysCommand} runs in a process of its own ({@code java -jar order-entry.jar keys ...}).
 * <p>Imports no other package of ours but config ({@link AuthConfig}'s settings); no framework apart from SLF4J.
 */
package io.orderentry.auth;
