package io.orderentry.http.json;

import io.orderentry.account.FeedRenderer;
import io.orderentry.instrument.Assets;
import io.orderentry.account.OrderUpdate;
import io.orderentry.http.stream.StreamFrames;
import io.orderentry.instrument.Instrument;
import io.orderentry.query.Fill;
import io.orderentry.query.OrderState;
import java.util.List;

/**
 * The messages of the private {@code orders} stream channel, as complete WebSocket text frames ({@link StreamFrames}).
 * Each order in them is the order object of the REST answers, byte for byte ({@link OrderJson}):
 * <pre>
 * {"type":"snapshot","channel":"orders","accountId":"acct-1","sequence":7,"orders":[{order},...]}
 * {"channel":"orders","event":"FILL","sequence":8,"orderId":1017,...every member of the order...,
 *  "fill":{"tradeId":311,"price":"49999.00","quantity":"0.1000","liquidity":"MAKER","timestamp":"..."}}
 * {"type":"balance","channel":"orders","accountId":"acct-1","sequence":9,"asset":"USD","total":"1000.00","available":"800.00",
 *  "held":"200.00","engineSequence":88240}
 * {"type":"unsubscribed","channel":"orders","accountId":"acct-1"}
 * </pre>
 * A balance message (with balances) follows every change of one of the account's balances, with the next feed
 * sequence, shared with the order updates.
 * An update is the order object of the REST answers plus {@code "event"} (and {@code "channel"}), as API.md has it,
 * with one member renamed: its {@code "sequence"} is the account's feed sequence (consecutive per account, the one a
 * client checks for gaps), so the engine event sequence of the order's last change, {@code "sequence"} in REST, is
 * {@code "engineSequence"} here. It has no message {@code "type"} as the other stream messages do, since the order's
 * own {@code "type"} (LIMIT, MARKET) is there: a client tells an update by its {@code "event"}. {@code "fill"} is
 * present in FILL updates only.
 *
 * <p>Not thread-safe: one instance per thread (the order stage renders updates, each event loop its snapshots).
 */
public final class OrderFeedJson implements FeedRenderer {

    /** Channel name on the wire. */
    public static final String CHANNEL = "orders";
    /** A buffer grown past this by a large snapshot is dropped after use rather than kept. */
    private static final int RETAINED_BUFFER = 256 * 1024;
    private static final int INITIAL_BUFFER = 4096;

    private final OrderJson orders;
    private final Assets assets;
    private JsonBytes out = new JsonBytes(INITIAL_BUFFER);

    /** @param instruments indexed by {@link Instrument#index()} */
    public OrderFeedJson(final List<Instrument> instruments) {
        this(instruments, null);
    }

    /**
     * @param instruments indexed by {@link Instrument#index()}
     * @param assets      the assets balance messages name, null without balances
     */
    public OrderFeedJson(final List<Instrument> instruments, final Assets assets) {
        this.orders = new OrderJson(instruments);
        this.assets = assets;
    }

    /** Renders an update; on the order stage's thread. */
    @Override
    public byte[] render(final String accountId, final OrderUpdate update) {
        final OrderUpdate.Balance balance = update.balance();
        if (balance != null) {
            final int asset = balance.asset();
            return frame(out.reset().ascii("{\"type\":\"balance\",\"channel\":\"orders\",\"accountId\":")
                    .string(accountId).ascii(",\"sequence\":").number(update.sequence()).ascii(",\"asset\":").string(assets.names().get(asset))
                    .ascii(",\"total\":\"").ascii(assets.amount(asset, balance.available() + balance.held())
                            .toPlainString())
                    .ascii("\",\"available\":\"").ascii(assets.amount(asset, balance.available()).toPlainString())
                    .ascii("\",\"held\":\"").ascii(assets.amount(asset, balance.held()).toPlainString())
                    .ascii("\",\"engineSequence\":").number(balance.engineSequence()).raw((byte) '}'));
        }
        final JsonBytes json = out.reset().ascii("{\"channel\":\"orders\",\"event\":\"")
                .ascii(update.event().name()).ascii("\",\"sequence\":").number(update.sequence()).raw((byte) ',');
        orders.writeFields(json, update.order(), "engineSequence");
        final Fill fill = update.fill();
        if (fill != null) {
            json.ascii(",\"fill\":");
            orders.writeFill(json, update.order().symbol(), fill);
        }
        return frame(json.raw((byte) '}'));
    }

    /** @return the snapshot of an account's open orders, oldest first */
    public byte[] snapshot(final String accountId, final long sequence, final List<OrderState> openOrders) {
        final JsonBytes json = head("snapshot", accountId, sequence).ascii(",\"orders\":[");
        for (int i = 0; i < openOrders.size(); i++) {
            if (i > 0) {
                json.raw((byte) ',');
            }
            orders.write(json, openOrders.get(i));
        }
        return frame(json.ascii("]}"));
    }

    /** @return the acknowledgement of an unsubscribe */
    public byte[] unsubscribed(final String accountId) {
        return frame(out.reset().ascii("{\"type\":\"unsubscribed\",\"channel\":\"orders\",\"accountId\":")
                .string(accountId).raw((byte) '}'));
    }

    private JsonBytes head(final String type, final String accountId, final long sequence) {
        return out.reset().ascii("{\"type\":\"").ascii(type).ascii("\",\"channel\":\"orders\",\"accountId\":")
                .string(accountId).ascii(",\"sequence\":").number(sequence);
    }

    private byte[] frame(final JsonBytes json) {
        final byte[] frame = StreamFrames.frames(json.toBytes(), false);
        if (json.length() > RETAINED_BUFFER) {
            out = new JsonBytes(INITIAL_BUFFER);
        }
        return frame;
    }
}
