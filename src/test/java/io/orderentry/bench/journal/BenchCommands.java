package io.orderentry.bench.journal;

import io.orderentry.engine.OrderType;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import io.orderentry.pipeline.CommandType;
import io.orderentry.pipeline.OrderCommand;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A realistic, deterministic stream of commands for the journal benchmarks: 80 % PLACE (mostly LIMIT GTC,
 * some IOC, FOK and MARKET; 70 % with a clientOrderId), 20 % CANCEL; 10,000 accounts, 10 instruments. Each command
 * names who asked as the HTTP edge does (a request id, an address with its port, a key id), from pools made up
 * front so that filling a command allocates nothing.
 */
final class BenchCommands {

    static final String[] SYMBOLS = {"BTCUSD", "ETHUSD", "SOLUSD", "XRPUSD", "ADAUSD",
        "DOGEUSD", "DOTUSD", "AVAXUSD", "LINKUSD", "LTCUSD"};

    private final String[] accounts = new String[10_000];
    private final String[] requestTags = new String[4096];
    private final String[] addresses = new String[1024];
    private final String[] keyIds = new String[10_000];
    private final SplittableRandom random;
    private long placed;

    BenchCommands(final long seed) {
        random = new SplittableRandom(seed);
        for (int i = 0; i < accounts.length; i++) {
            accounts[i] = "acct-" + i;
            keyIds[i] = String.format("k%016x", i * 0x9E3779B97F4A7C15L);
        }
        for (int i = 0; i < requestTags.length; i++) {
            requestTags[i] = "5f3a9c1e-" + (i & 1) + "-" + (1_000_000 + i);
        }
        for (int i = 0; i < addresses.length; i++) {
            addresses[i] = "10.1." + (i >> 8) + "." + (i & 255) + ":" + (32_768 + i * 31);
        }
    }

    static Map<String, Integer> symbolIndex() {
        final Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < SYMBOLS.length; i++) {
            index.put(SYMBOLS[i], i);
        }
        return index;
    }

    /** Fills {@code c} with the next command; sequence and timestamp are left to the caller. */
    void next(final OrderCommand c) {
        c.reset();
        c.requestTag = requestTags[random.nextInt(requestTags.length)];
        c.remoteAddress = addresses[random.nextInt(addresses.length)];
        c.keyId = keyIds[random.nextInt(keyIds.length)];
        if (placed > 10 && random.nextInt(5) == 0) {
            c.type = CommandType.CANCEL;
            c.orderId = 1 + random.nextLong(placed);
            return;
        }
        placed++;
        c.type = CommandType.PLACE;
        c.accountId = accounts[random.nextInt(accounts.length)];
        c.clientOrderId = random.nextInt(10) < 7 ? "cl-" + Long.toHexString(random.nextLong()) : null;
        c.symbol = random.nextInt(SYMBOLS.length);
        c.side = random.nextBoolean() ? Side.BUY : Side.SELL;
        final int kind = random.nextInt(100);
        c.orderType = kind < 95 ? OrderType.LIMIT : OrderType.MARKET;
        c.timeInForce = kind < 85 ? TimeInForce.GTC : kind < 90 ? TimeInForce.FOK : TimeInForce.IOC;
        c.postOnly = kind < 20;
        c.price = c.orderType == OrderType.MARKET ? 0 : 5_000_000 + random.nextInt(20_000);
        c.quantity = 1 + random.nextInt(10_000);
    }
}
