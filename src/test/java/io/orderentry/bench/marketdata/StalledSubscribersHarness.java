package io.orderentry.bench.marketdata;

import io.orderentry.testing.StalledStreamClient;
import java.util.ArrayList;
import java.util.List;

/**
 * Many stream subscribers that never read (issue 13, item 12: what the stream holds in memory for clients that
 * stall). Each connects with a 4 KiB receive buffer, subscribes to book, trades and ticker of BTCUSD and ETHUSD, and
 * then only holds the socket. Prints {@code STALLED n} once all are subscribed and {@code DONE} after SECONDS.
 *
 * <pre>java -cp ... io.orderentry.bench.marketdata.StalledSubscribersHarness PORT CONNECTIONS SECONDS</pre>
 */
public final class StalledSubscribersHarness {

    private StalledSubscribersHarness() {
    }

    public static void main(final String[] args) throws Exception {
        final int port = Integer.parseInt(args[0]);
        final int connections = Integer.parseInt(args[1]);
        final long seconds = Long.parseLong(args[2]);
        final List<StalledStreamClient> clients = new ArrayList<>(connections);
        int refused = 0;
        for (int i = 0; i < connections; i++) {
            try {
                final StalledStreamClient client = StalledStreamClient.connect(port);
                for (final String channel : new String[] {"book", "trades", "ticker"}) {
                    for (final String symbol : new String[] {"BTCUSD", "ETHUSD"}) {
                        client.send("{\"op\":\"subscribe\",\"channel\":\"" + channel + "\",\"symbol\":\"" + symbol
                                + "\"}");
                    }
                }
                clients.add(client);
            } catch (final RuntimeException e) {
                refused++;
            }
        }
        System.out.println("STALLED " + clients.size() + " refused " + refused);
        Thread.sleep(seconds * 1000);
        for (final StalledStreamClient client : clients) {
            try {
                client.close();
            } catch (final RuntimeException ignored) {
                // the server may have closed it already (slow-client policy)
            }
        }
        System.out.println("DONE");
    }
}
