package io.orderentry.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A seeded stream of valid commands that keeps the books busy near a fixed mid price: about 50% GTC
 * limits around the touch (some crossing, some postOnly), 10% IOC/MARKET/FOK, 40% cancels of recent,
 * old, final and never-assigned ids; several accounts and two symbols; half the orders carry a
 * clientOrderId drawn from a small per-account pool, and some orders are exact or altered retries of
 * a recent one, so DUPLICATE and DUPLICATE_MISMATCH both occur.
 */
final class CommandGenerator {

    private static final long MID = 1_000;
    private static final int ACCOUNTS = 6;

    private final Random random;
    private final int symbolCount;
    private final List<Command> recentPlaces = new ArrayList<>();
    private long placed;

    CommandGenerator(final long seed, final int symbolCount) {
        this.random = new Random(seed);
        this.symbolCount = symbolCount;
    }

    List<Command> generate(final int count) {
        final List<Command> commands = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            commands.add(next());
        }
        return commands;
    }

    Command next() {
        final int roll = random.nextInt(100);
        if (roll < 40) {
            return Command.cancelOf(cancelTarget());
        }
        if (roll < 45 && !recentPlaces.isEmpty()) {
            return retry(recentPlaces.get(random.nextInt(recentPlaces.size())));
        }
        final String account = "acct-" + random.nextInt(ACCOUNTS);
        final String clientOrderId = random.nextBoolean() ? "c-" + random.nextInt(20_000) : null;
        final int symbol = random.nextInt(symbolCount);
        final Side side = random.nextBoolean() ? Side.BUY : Side.SELL;
        final int sign = side == Side.BUY ? -1 : 1;
        final Command command;
        if (roll < 89) {
            final long price = MID + sign * (random.nextInt(10) - 2);
            final boolean postOnly = random.nextInt(8) == 0;
            command = Command.place(account, clientOrderId, symbol, side, OrderType.LIMIT, TimeInForce.GTC, postOnly,
                    price, 1 + random.nextInt(10));
        } else if (roll < 93) {
            command = Command.place(account, clientOrderId, symbol, side, OrderType.LIMIT, TimeInForce.IOC, false,
                    MID - sign * random.nextInt(6), 1 + random.nextInt(25));
        } else if (roll < 96) {
            final int quantity = random.nextInt(10) == 0 ? 1 + random.nextInt(200) : 1 + random.nextInt(25);
            command = Command.place(account, clientOrderId, symbol, side, OrderType.MARKET, TimeInForce.IOC, false, 0,
                    quantity);
        } else {
            command = Command.place(account, clientOrderId, symbol, side, OrderType.LIMIT, TimeInForce.FOK, false,
                    MID - sign * random.nextInt(6), 1 + random.nextInt(25));
        }
        remember(command);
        placed++;
        return command;
    }

    /** Mostly recent ids (likely still resting), some older or final ones, some never assigned. */
    private long cancelTarget() {
        final int roll = random.nextInt(100);
        if (roll < 60 && placed > 0) {
            return Math.max(1, placed - random.nextInt(300));
        }
        if (roll < 85 && placed > 0) {
            return Math.max(1, placed - random.nextInt(5_000));
        }
        return roll < 95 ? placed + 1_000 + random.nextInt(1_000) : -random.nextInt(2);
    }

    /** The same order again, or with one field changed; a retry without clientOrderId is a new order. */
    private Command retry(final Command original) {
        if (random.nextInt(3) > 0) {
            placed++;
            return original;
        }
        final long quantity = original.quantity() + 1;
        final Command altered = Command.place(original.accountId(), original.clientOrderId(), original.symbol(),
                original.side(), original.type(), original.timeInForce(), original.postOnly(), original.price(), quantity);
        placed++;
        return altered;
    }

    private void remember(final Command command) {
        if (recentPlaces.size() < 64) {
            recentPlaces.add(command);
        } else {
            recentPlaces.set(random.nextInt(64), command);
        }
    }
}
