package io.orderentry.account;

import io.orderentry.engine.EngineConfig;
import io.orderentry.engine.Matcher;
import io.orderentry.engine.OrderType;
import io.orderentry.engine.RejectReason;
import io.orderentry.engine.SelfTradePrevention;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import io.orderentry.pipeline.CommandType;
import io.orderentry.pipeline.EngineEvent;
import io.orderentry.pipeline.MatcherMetrics;
import io.orderentry.pipeline.MatcherStage;
import io.orderentry.pipeline.OrderCommand;
import io.orderentry.query.OrderStateView;
import io.orderentry.testing.CollectingOutput;
import java.nio.charset.StandardCharsets;

/**
 * A real engine feeding the order stage's first parts, as the output ring's {@code oe-orders} thread runs them: each
 * engine event goes through the {@link OrderStateView} and then the {@link AccountFeedStage}, and {@link #endBatch} ends
 * the batch of both. Commands go through a real {@link Matcher} behind its {@link MatcherStage}, so the events are
 * exactly those the service's output ring carries. Single-threaded.
 */
final class FeedDriver {

    static final int SYMBOLS = 2;

    final OrderStateView view = new OrderStateView(100_000);
    /** Renders an update as {@code account:sequence:event}, so tests can see what each subscriber was handed. */
    final AccountFeedStage feeds = new AccountFeedStage(view, (account, update) ->
            (account + ":" + update.sequence() + ":" + update.event()).getBytes(StandardCharsets.US_ASCII));
    private final CollectingOutput output = new CollectingOutput();
    private final MatcherStage matcher = new MatcherStage(
            sink -> new Matcher(SYMBOLS, new EngineConfig(100_000, 10_000, 1_000, 1_000), sink), output,
            new MatcherMetrics());
    private final OrderCommand command = new OrderCommand();
    private int applied;
    private long journalSequence;

    /** Places a LIMIT order and applies its events (the batch stays open). */
    void limit(final String account, final Side side, final long price, final long quantity, final TimeInForce tif) {
        command.reset();
        command.type = CommandType.PLACE;
        command.accountId = account;
        command.symbol = 0;
        command.side = side;
        command.orderType = OrderType.LIMIT;
        command.timeInForce = tif;
        command.price = price;
        command.quantity = quantity;
        run(command);
    }

    /** Rests a LIMIT GTC order. */
    void rest(final String account, final Side side, final long price, final long quantity) {
        limit(account, side, price, quantity, TimeInForce.GTC);
    }

    /** Places a LIMIT order of any instrument, postOnly or not, with a self-trade prevention mode. */
    void place(final String account, final int symbol, final Side side, final long price, final long quantity,
               final TimeInForce tif, final boolean postOnly, final SelfTradePrevention stp) {
        command.reset();
        command.type = CommandType.PLACE;
        command.accountId = account;
        command.symbol = symbol;
        command.side = side;
        command.orderType = OrderType.LIMIT;
        command.timeInForce = tif;
        command.postOnly = postOnly;
        command.selfTradePrevention = stp;
        command.price = price;
        command.quantity = quantity;
        run(command);
    }

    /** Amends an order: a new price and/or total quantity, 0 keeps either. */
    void amend(final long orderId, final long price, final long quantity) {
        command.reset();
        command.type = CommandType.AMEND;
        command.orderId = orderId;
        command.price = price;
        command.quantity = quantity;
        run(command);
    }

    /** Cancels the account's resting orders of one instrument, or of all ({@code symbol} -1). */
    void cancelAll(final String account, final int symbol, final RejectReason cause) {
        command.reset();
        command.type = CommandType.CANCEL_ALL;
        command.accountId = account;
        command.symbol = symbol;
        command.cancelAllCause = cause;
        run(command);
    }

    void cancel(final long orderId) {
        command.reset();
        command.type = CommandType.CANCEL;
        command.orderId = orderId;
        run(command);
    }

    /** Executes a filled command, numbering and timing it, and applies its events; the batch stays open. */
    void run(final OrderCommand c) {
        journalSequence++;
        c.sequence = journalSequence;
        c.timestampMicros = 1_800_000_000_000_000L + journalSequence * 1_000L;
        matcher.replay(c);
        applyNew(Integer.MAX_VALUE);
    }

    /**
     * Executes the command without applying its events yet: {@link #applyNew} does, so that a test can end a batch
     * (or subscribe) between any two of them.
     */
    void execute(final OrderCommand c) {
        journalSequence++;
        c.sequence = journalSequence;
        c.timestampMicros = 1_800_000_000_000_000L + journalSequence * 1_000L;
        matcher.replay(c);
    }

    /**
     * Applies at most {@code max} of the events not applied yet, each to the view and then the feeds.
     *
     * @return how many it applied
     */
    int applyNew(final int max) {
        int count = 0;
        while (applied < output.events().size() && count < max) {
            final EngineEvent event = output.events().get(applied);
            view.apply(event, applied);
            feeds.apply(event, applied);
            applied++;
            count++;
        }
        return count;
    }

    /** @return events executed but not yet applied */
    int unapplied() {
        return output.events().size() - applied;
    }

    /** Ends the batch of the view and then the feeds, as {@code Sequential} does. */
    void endBatch() {
        view.endOfBatch();
        feeds.endOfBatch();
    }

    Matcher matcher() {
        return matcher.matcher();
    }
}
