package io.orderentry.auth;

import java.util.Locale;

/** What an API key may do. Written in the keys file and in listings by its {@link #wireName()}. */
public enum Permission {
    /** Place, amend and cancel orders of the key's account, and read them. */
    TRADE,
    /** Read the key's account's orders and subscribe to its private stream; no change. */
    READ,
    /** The operations endpoints ({@code /metrics}, the detailed {@code /ready}, {@code /admin/...}); no orders. */
    ADMIN;

    /** @return the name in the keys file and in listings: {@code trade}, {@code read} or {@code admin} */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @return the permission named {@code text}, or null if none is */
    public static Permission ofWireName(final String text) {
        for (final Permission permission : values()) {
            if (permission.wireName().equals(text)) {
                return permission;
            }
        }
        return null;
    }

    /** @return whether a key with this permission may read the orders of its account */
    public boolean mayRead() {
        return this == TRADE || this == READ;
    }

    /** @return whether a key with this permission may place, amend and cancel orders of its account */
    public boolean mayTrade() {
        return this == TRADE;
    }
}
