package io.orderentry.http.rest;

import io.orderentry.engine.OrderType;
import io.orderentry.engine.SelfTradePrevention;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import io.orderentry.instrument.DecimalText;
import io.orderentry.instrument.Instrument;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Collection;

/**
 * Reads the common, valid order body straight from its bytes, without a JSON tree, regular expressions or
 * {@link BigDecimal}s. It accepts only a strict subset of what {@link OrderRequestParser} accepts, and for that
 * subset returns exactly the order the full parser would: one JSON object of known, distinct fields; string
 * values without escapes; {@code true}/{@code false} for {@code postOnly}; prices and quantities as decimal
 * strings of at most 18 significant digits, on tick and lot and in range; a valid combination of type, time in
 * force and post-only.
 *
 * <p>Anything else, whether invalid or merely unusual (escapes, numbers instead of strings, {@code null}, a
 * duplicate or unknown field, trailing content), returns {@code null}, and the caller parses the body with the
 * full parser, which answers the exact error. The fast path therefore never produces an error of its own.
 *
 * <p>It is longer than the 500 lines the other classes stay under, as it does one job that does not split well: a
 * hand-written, allocation-free parser of the one hot request ({@code POST /api/v1/orders}), whose field readers,
 * decimal scanning and range checks share one cursor over the body's bytes; spreading them over classes would only
 * add calls (and state to hand over) on every order.
 *
 * <p>Stateless and thread-safe.
 */
public final class FastOrderParser {

    private static final int MAX_ID_LENGTH = 64;
    private static final int ACCOUNT_CACHE = 4096;
    private static final int MAX_DECIMAL_DIGITS = 40;
    private static final int MAX_SIGNIFICANT_DIGITS = 18;
    private static final long[] POW10 = DecimalText.POWERS;

    private static final byte[][] FIELD_NAMES = names("accountId", "clientOrderId", "symbol", "side", "type",
            "timeInForce", "postOnly", "price", "quantity", "selfTradePrevention");
    private static final int ACCOUNT = 0;
    private static final int CLIENT_ORDER_ID = 1;
    private static final int SYMBOL = 2;
    private static final int SIDE = 3;
    private static final int TYPE = 4;
    private static final int TIME_IN_FORCE = 5;
    private static final int POST_ONLY = 6;
    private static final int PRICE = 7;
    private static final int QUANTITY = 8;
    private static final int SELF_TRADE_PREVENTION = 9;
    private static final int REQUIRED = 1 << ACCOUNT | 1 << SYMBOL | 1 << SIDE | 1 << TYPE | 1 << QUANTITY;

    private static final byte[][] SIDES = names(Side.class);
    private static final byte[][] TYPES = names(OrderType.class);
    private static final byte[][] TIMES_IN_FORCE = names(TimeInForce.class);
    private static final Side[] SIDE_VALUES = Side.values();
    private static final OrderType[] TYPE_VALUES = OrderType.values();
    private static final TimeInForce[] TIF_VALUES = TimeInForce.values();
    private static final byte[][] STP_MODES = names(SelfTradePrevention.class);
    private static final SelfTradePrevention[] STP_VALUES = SelfTradePrevention.values();

    /**
     * Account ids seen recently, by a hash of their bytes (direct-mapped, racy by design: any entry is a complete
     * String or null). An order of a known account gets the same String instance, so the engine, the order view and
     * the ring slots that keep it hold one old object instead of a new one per order that every young collection
     * would copy.
     */
    private final String[] accounts = new String[ACCOUNT_CACHE];
    private final SelfTradePrevention defaultStp;

    /** Instruments by a hash of their symbol's bytes, open addressing; with their unit sizes as longs. */
    private final Market[] markets;
    private final int mask;

    /**
     * One instrument and its tick and lot as {@code unscaled x 10^-scale}; unscaled 0 when it does not fit. A price is
     * read as a count of ticks, then counted in price units.
     */
    private record Market(Instrument instrument, byte[] symbol, long tickUnscaled, int tickScale, long lotUnscaled,
                          int lotScale, long unitsPerTick) {
    }

    FastOrderParser(final Collection<Instrument> instruments) {
        this(instruments, SelfTradePrevention.NONE);
    }

    /** @param defaultStp the self-trade prevention of an order whose body names none (the venue's default) */
    FastOrderParser(final Collection<Instrument> instruments, final SelfTradePrevention defaultStp) {
        this.defaultStp = defaultStp;
        int capacity = 4;
        while (capacity < instruments.size() * 2) {
            capacity <<= 1;
        }
        this.markets = new Market[capacity];
        this.mask = capacity - 1;
        for (final Instrument instrument : instruments) {
            final byte[] symbol = instrument.symbol().getBytes(StandardCharsets.US_ASCII);
            int slot = hash(symbol, 0, symbol.length) & mask;
            while (markets[slot] != null) {
                slot = (slot + 1) & mask;
            }
            markets[slot] = new Market(instrument, symbol, unscaled(instrument.tickSize()),
                    instrument.tickSize().scale(), unscaled(instrument.lotSize()), instrument.lotSize().scale(),
                    instrument.unitsPerTick());
        }
    }

    /**
     * @return the order, exactly as {@link OrderRequestParser} reads it, or null when the body is not in the
     *         subset read here (the caller then uses the full parser)
     */
    PlaceOrder parse(final byte[] body) {
        return parse(body, true);
    }

    /** As {@link #parse(byte[])}; with {@code accountRequired} false a body without accountId is read too. */
    PlaceOrder parse(final byte[] body, final boolean accountRequired) {
        final Reader in = new Reader(body);
        return in.order(this, accountRequired ? REQUIRED : REQUIRED & ~(1 << ACCOUNT));
    }

    private String account(final byte[] bytes, final int from, final int to) {
        final int slot = hash(bytes, from, to) & (ACCOUNT_CACHE - 1);
        final String known = accounts[slot];
        if (known != null && sameText(known, bytes, from, to)) {
            return known;
        }
        final String account = new String(bytes, from, to - from, StandardCharsets.US_ASCII);
        accounts[slot] = account;
        return account;
    }

    private static boolean sameText(final String text, final byte[] bytes, final int from, final int to) {
        if (text.length() != to - from) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) != bytes[from + i]) {
                return false;
            }
        }
        return true;
    }

    private Market market(final byte[] bytes, final int from, final int to) {
        int slot = hash(bytes, from, to) & mask;
        for (Market market = markets[slot]; market != null; market = markets[slot = (slot + 1) & mask]) {
            if (equal(market.symbol, bytes, from, to)) {
                return market;
            }
        }
        return null;
    }

    /** The cursor over one body; every method returns a failure value rather than throwing. */
    private static final class Reader {
        private final byte[] b;
        private int pos;

        Reader(final byte[] body) {
            this.b = body;
        }

        PlaceOrder order(final FastOrderParser parser, final int required) {
            if (!skipWhitespaceTo('{')) {
                return null;
            }
            pos++;
            int seen = 0;
            String accountId = null;
            String clientOrderId = null;
            Market market = null;
            int side = -1;
            int type = -1;
            int tif = -1;
            int stp = -1;
            boolean postOnly = false;
            int priceFrom = -1;
            int priceTo = -1;
            int quantityFrom = -1;
            int quantityTo = -1;
            while (true) {
                if (!skipWhitespaceTo('"')) {
                    return null;
                }
                final int nameFrom = ++pos;
                final int nameTo = endOfString();
                if (nameTo < 0) {
                    return null;
                }
                final int field = field(nameFrom, nameTo);
                if (field < 0 || (seen & 1 << field) != 0) {
                    return null;
                }
                seen |= 1 << field;
                if (!skipWhitespaceTo(':')) {
                    return null;
                }
                pos++;
                if (field == POST_ONLY) {
                    final int bool = bool();
                    if (bool < 0) {
                        return null;
                    }
                    postOnly = bool == 1;
                } else {
                    if (!skipWhitespaceTo('"')) {
                        return null;
                    }
                    final int from = ++pos;
                    final int to = endOfString();
                    if (to < 0) {
                        return null;
                    }
                    switch (field) {
                        case ACCOUNT -> {
                            if (!idText(from, to, false)) {
                                return null;
                            }
                            accountId = parser.account(b, from, to);
                        }
                        case CLIENT_ORDER_ID -> {
                            if (!idText(from, to, true)) {
                                return null;
                            }
                            clientOrderId = new String(b, from, to - from, StandardCharsets.US_ASCII);
                        }
                        case SYMBOL -> market = parser.market(b, from, to);
                        case SIDE -> side = indexOf(SIDES, from, to);
                        case TYPE -> type = indexOf(TYPES, from, to);
                        case TIME_IN_FORCE -> {
                            tif = indexOf(TIMES_IN_FORCE, from, to);
                            if (tif < 0) {
                                return null;
                            }
                        }
                        case SELF_TRADE_PREVENTION -> {
                            stp = indexOf(STP_MODES, from, to);
                            if (stp < 0) {
                                return null;
                            }
                        }
                        case PRICE -> {
                            priceFrom = from;
                            priceTo = to;
                        }
                        case QUANTITY -> {
                            quantityFrom = from;
                            quantityTo = to;
                        }
                        default -> {
                            return null;
                        }
                    }
                }
                skipWhitespace();
                if (pos >= b.length) {
                    return null;
                }
                if (b[pos] == '}') {
                    pos++;
                    break;
                }
                if (b[pos] != ',') {
                    return null;
                }
                pos++;
            }
            skipWhitespace();
            if (pos != b.length || (seen & required) != required || market == null || side < 0 || type < 0) {
                return null;
            }
            final OrderType orderType = TYPE_VALUES[type];
            final TimeInForce timeInForce;
            if (orderType == OrderType.MARKET) {
                if (priceFrom >= 0 || (tif >= 0 && TIF_VALUES[tif] != TimeInForce.IOC) || postOnly) {
                    return null;
                }
                timeInForce = TimeInForce.IOC;
            } else {
                timeInForce = tif < 0 ? TimeInForce.GTC : TIF_VALUES[tif];
                if (priceFrom < 0 || (postOnly && timeInForce != TimeInForce.GTC)) {
                    return null;
                }
            }
            final Instrument instrument = market.instrument;
            final long lots = units(quantityFrom, quantityTo, market.lotUnscaled, market.lotScale,
                    instrument.maxQuantity());
            if (lots <= 0) {
                return null;
            }
            final long ticks = priceFrom < 0 ? 0 : units(priceFrom, priceTo, market.tickUnscaled, market.tickScale,
                    instrument.maxPrice() / market.unitsPerTick);
            if (ticks < 0) {
                return null;
            }
            return new PlaceOrder(accountId, clientOrderId, instrument, SIDE_VALUES[side], orderType, timeInForce,
                    postOnly, stp < 0 ? parser.defaultStp : STP_VALUES[stp], ticks * market.unitsPerTick, lots);
        }

        /**
         * @return the decimal text in {@code [from, to)} as a whole, positive number of {@code unit}s at most
         *         {@code max}, or -1 when it is not one (or needs more than long arithmetic)
         */
        private long units(final int from, final int to, final long unit, final int unitScale, final long max) {
            if (unit == 0) {
                return -1;
            }
            long digits = 0;
            int significant = 0;
            int integerDigits = 0;
            int i = from;
            while (i < to && isDigit(b[i])) {
                significant = accumulate(significant, b[i]);
                if (significant > MAX_SIGNIFICANT_DIGITS) {
                    return -1;
                }
                digits = digits * 10 + (b[i] - '0');
                integerDigits++;
                i++;
            }
            if (integerDigits == 0 || integerDigits > MAX_DECIMAL_DIGITS) {
                return -1;
            }
            int scale = 0;
            if (i < to) {
                if (b[i] != '.') {
                    return -1;
                }
                i++;
                int fractionEnd = to;
                if (fractionEnd - i == 0 || fractionEnd - i > MAX_DECIMAL_DIGITS) {
                    return -1;
                }
                for (int j = i; j < fractionEnd; j++) {
                    if (!isDigit(b[j])) {
                        return -1;
                    }
                }
                while (fractionEnd > i && b[fractionEnd - 1] == '0') {
                    fractionEnd--;
                }
                for (; i < fractionEnd; i++) {
                    significant = accumulate(significant, b[i]);
                    if (significant > MAX_SIGNIFICANT_DIGITS) {
                        return -1;
                    }
                    digits = digits * 10 + (b[i] - '0');
                    scale++;
                }
            }
            if (digits == 0) {
                return -1;
            }
            // amount / unit = (digits x 10^-scale) / (unit x 10^-unitScale)
            final long quotient;
            final int shift = unitScale - scale;
            if (shift >= 0) {
                if (shift >= POW10.length) {
                    return -1;
                }
                final long numerator = multiply(digits, POW10[shift]);
                if (numerator < 0 || numerator % unit != 0) {
                    return -1;
                }
                quotient = numerator / unit;
            } else {
                if (-shift >= POW10.length) {
                    return -1;
                }
                final long denominator = multiply(unit, POW10[-shift]);
                if (denominator < 0 || digits % denominator != 0) {
                    return -1;
                }
                quotient = digits / denominator;
            }
            return quotient > max ? -1 : quotient;
        }

        private static int accumulate(final int significant, final byte digit) {
            return significant == 0 && digit == '0' ? 0 : significant + 1;
        }

        /** @return 1 for true, 0 for false, -1 for anything else */
        private int bool() {
            skipWhitespace();
            if (matches("true")) {
                pos += 4;
                return 1;
            }
            if (matches("false")) {
                pos += 5;
                return 0;
            }
            return -1;
        }

        private boolean matches(final String word) {
            if (pos + word.length() > b.length) {
                return false;
            }
            for (int i = 0; i < word.length(); i++) {
                if (b[pos + i] != word.charAt(i)) {
                    return false;
                }
            }
            return true;
        }

        /** Moves past the closing quote of a string of printable ASCII without escapes; @return its end or -1 */
        private int endOfString() {
            for (int i = pos; i < b.length; i++) {
                final byte c = b[i];
                if (c == '"') {
                    pos = i + 1;
                    return i;
                }
                if (c < 0x20 || c > 0x7e || c == '\\') {
                    return -1;
                }
            }
            return -1;
        }

        private boolean idText(final int from, final int to, final boolean clientOrderId) {
            final int length = to - from;
            if (length < 1 || length > MAX_ID_LENGTH) {
                return false;
            }
            for (int i = from; i < to; i++) {
                final byte c = b[i];
                final boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
                        || c == '-' || clientOrderId && (c == '.' || c == ':');
                if (!ok) {
                    return false;
                }
            }
            return true;
        }

        private int field(final int from, final int to) {
            return indexOf(FIELD_NAMES, from, to);
        }

        private int indexOf(final byte[][] names, final int from, final int to) {
            for (int i = 0; i < names.length; i++) {
                if (equal(names[i], b, from, to)) {
                    return i;
                }
            }
            return -1;
        }

        private void skipWhitespace() {
            while (pos < b.length && (b[pos] == ' ' || b[pos] == '\n' || b[pos] == '\r' || b[pos] == '\t')) {
                pos++;
            }
        }

        private boolean skipWhitespaceTo(final char expected) {
            skipWhitespace();
            return pos < b.length && b[pos] == expected;
        }
    }

    private static boolean isDigit(final byte c) {
        return c >= '0' && c <= '9';
    }

    /** @return a x b for non-negative a and b, or -1 on overflow */
    private static long multiply(final long a, final long b) {
        final long high = Math.multiplyHigh(a, b);
        final long low = a * b;
        return high != 0 || low < 0 ? -1 : low;
    }

    private static long unscaled(final BigDecimal unit) {
        final BigInteger unscaled = unit.unscaledValue();
        return unscaled.bitLength() < Long.SIZE - 1 ? unscaled.longValue() : 0;
    }

    private static boolean equal(final byte[] name, final byte[] bytes, final int from, final int to) {
        if (name.length != to - from) {
            return false;
        }
        for (int i = 0; i < name.length; i++) {
            if (name[i] != bytes[from + i]) {
                return false;
            }
        }
        return true;
    }

    /** The same as {@link String#hashCode} of the ASCII text. */
    private static int hash(final byte[] bytes, final int from, final int to) {
        int h = 0;
        for (int i = from; i < to; i++) {
            h = 31 * h + bytes[i];
        }
        return h ^ h >>> 16;
    }

    private static byte[][] names(final String... names) {
        final byte[][] bytes = new byte[names.length][];
        for (int i = 0; i < names.length; i++) {
            bytes[i] = names[i].getBytes(StandardCharsets.US_ASCII);
        }
        return bytes;
    }

    private static <E extends Enum<E>> byte[][] names(final Class<E> type) {
        final E[] constants = type.getEnumConstants();
        final String[] names = new String[constants.length];
        for (int i = 0; i < constants.length; i++) {
            names[i] = constants[i].name();
        }
        return names(names);
    }
}
