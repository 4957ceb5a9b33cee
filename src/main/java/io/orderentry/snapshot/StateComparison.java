package io.orderentry.snapshot;

import io.orderentry.engine.Matcher;
import io.orderentry.engine.Side;
import io.orderentry.marketdata.BookSnapshot;
import io.orderentry.marketdata.MarketDataView;
import io.orderentry.marketdata.Ticker;
import io.orderentry.query.OrderState;
import io.orderentry.query.OrderStateView;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Compares two states as a client would see them, to say where a snapshot and a replay of the journal part: the
 * engine's ids, books, per instrument its price band and the last trade price the band is taken around, then its
 * queues (its snapshot form is canonical, so equal engines write equal bytes: each resting order's postOnly flag and
 * self-trade prevention included), every order the view answers for (all of {@link OrderState}: an amend's terms, the
 * self-trade prevention, the reason it ended), every account's open orders, and per instrument the market data
 * book, recent trades and ticker. Stream sequences are left out: they count batches, which differ between a live run
 * and a replay.
 */
final class StateComparison {

    private StateComparison() {
    }

    /**
     * @param expected the state replayed from the journal
     * @param actual   the state loaded from the snapshot
     * @return the first difference in words, or null when there is none
     */
    static String firstDifference(final ServiceState expected, final ServiceState actual, final List<String> symbols)
            throws IOException {
        final String engine = engine(expected.matcher(), actual.matcher(), symbols);
        if (engine != null) {
            return engine;
        }
        final String orders = orders(expected.view(), actual.view(), expected.matcher().lastOrderId());
        if (orders != null) {
            return orders;
        }
        return marketData(expected.marketData().view(), actual.marketData().view(), symbols);
    }

    private static String engine(final Matcher e, final Matcher a, final List<String> symbols) throws IOException {
        final long[] ids = {e.lastOrderId(), e.lastTradeId(), e.lastEventSequence(), e.restingOrderCount()};
        final long[] got = {a.lastOrderId(), a.lastTradeId(), a.lastEventSequence(), a.restingOrderCount()};
        if (!Arrays.equals(ids, got)) {
            return "engine: last order id, last trade id, last event sequence, resting orders: replay "
                    + Arrays.toString(ids) + ", snapshot " + Arrays.toString(got);
        }
        for (int symbol = 0; symbol < symbols.size(); symbol++) {
            if (e.priceBand(symbol) != a.priceBand(symbol) || e.priceBandRule(symbol) != a.priceBandRule(symbol)
                    || e.lastTradePrice(symbol) != a.lastTradePrice(symbol)) {
                return "engine: " + symbols.get(symbol) + " price band (basis points), its rule and last trade price"
                        + " (ticks): replay " + e.priceBand(symbol) + ", " + e.priceBandRule(symbol) + ", "
                        + e.lastTradePrice(symbol) + "; snapshot " + a.priceBand(symbol) + ", "
                        + a.priceBandRule(symbol) + ", " + a.lastTradePrice(symbol);
            }
            for (final Side side : Side.values()) {
                final List<String> replayed = levels(e, symbol, side);
                final List<String> loaded = levels(a, symbol, side);
                if (!replayed.equals(loaded)) {
                    return "engine: " + symbols.get(symbol) + " " + side + " levels (price x quantity / orders): replay "
                            + firstDiff(replayed, loaded);
                }
            }
        }
        if (!Arrays.equals(bytes(e), bytes(a))) {
            return "engine: the books' levels agree, but the order queues (an order's place, postOnly or self-trade"
                    + " prevention) or the dedup window differ";
        }
        return null;
    }

    private static String orders(final OrderStateView e, final OrderStateView a, final long lastOrderId) {
        if (e.size() != a.size()) {
            return "order view: replay holds " + e.size() + " orders, snapshot " + a.size();
        }
        final Set<String> accounts = new LinkedHashSet<>();
        for (long id = 1; id <= lastOrderId; id++) {
            final OrderState replayed = e.get(id);
            final OrderState loaded = a.get(id);
            if (!Objects.equals(replayed, loaded)) {
                return "order " + id + ": replay " + replayed + ", snapshot " + loaded;
            }
            if (replayed != null) {
                accounts.add(replayed.accountId());
            }
        }
        for (final String account : accounts) {
            final List<OrderState> replayed = e.openOrders(account, 0, Integer.MAX_VALUE);
            final List<OrderState> loaded = a.openOrders(account, 0, Integer.MAX_VALUE);
            if (!replayed.equals(loaded)) {
                return "open orders of " + account + ": replay " + ids(replayed) + ", snapshot " + ids(loaded);
            }
        }
        return null;
    }

    private static String marketData(final MarketDataView e, final MarketDataView a, final List<String> symbols) {
        for (int symbol = 0; symbol < symbols.size(); symbol++) {
            final String name = symbols.get(symbol);
            final BookSnapshot eb = e.currentBook(symbol);
            final BookSnapshot ab = a.currentBook(symbol);
            for (final Side side : Side.values()) {
                final List<String> replayed = new ArrayList<>();
                final List<String> loaded = new ArrayList<>();
                for (int i = 0; i < eb.levelCount(side); i++) {
                    replayed.add(eb.price(side, i) + "x" + eb.quantity(side, i));
                }
                for (int i = 0; i < ab.levelCount(side); i++) {
                    loaded.add(ab.price(side, i) + "x" + ab.quantity(side, i));
                }
                if (!replayed.equals(loaded)) {
                    return "market data: " + name + " " + side + " book: replay " + firstDiff(replayed, loaded);
                }
            }
            if (!e.trades(symbol).recent(Integer.MAX_VALUE).equals(a.trades(symbol).recent(Integer.MAX_VALUE))) {
                return "market data: " + name + " recent trades differ";
            }
            if (!sameTicker(e.ticker(symbol), a.ticker(symbol))) {
                return "market data: " + name + " ticker: replay " + e.ticker(symbol) + ", snapshot " + a.ticker(symbol);
            }
        }
        return null;
    }

    private static boolean sameTicker(final Ticker e, final Ticker a) {
        return e.bestBid() == a.bestBid() && e.bestBidQuantity() == a.bestBidQuantity() && e.bestAsk() == a.bestAsk()
                && e.bestAskQuantity() == a.bestAskQuantity() && Objects.equals(e.lastTrade(), a.lastTrade())
                && e.volume24h() == a.volume24h();
    }

    private static List<String> levels(final Matcher matcher, final int symbol, final Side side) {
        final List<String> levels = new ArrayList<>();
        matcher.forEachLevel(symbol, side, (price, total, count) -> levels.add(price + "x" + total + "/" + count));
        return levels;
    }

    private static String firstDiff(final List<String> replayed, final List<String> loaded) {
        for (int i = 0; i < Math.max(replayed.size(), loaded.size()); i++) {
            final String r = i < replayed.size() ? replayed.get(i) : "(none)";
            final String l = i < loaded.size() ? loaded.get(i) : "(none)";
            if (!r.equals(l)) {
                return "has " + r + " at level " + i + ", snapshot " + l;
            }
        }
        return "the same";
    }

    private static List<Long> ids(final List<OrderState> orders) {
        return orders.stream().map(OrderState::orderId).toList();
    }

    private static byte[] bytes(final Matcher matcher) throws IOException {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            matcher.writeSnapshot(out);
        }
        return bytes.toByteArray();
    }
}
