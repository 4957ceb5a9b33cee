package io.orderentry.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import org.junit.jupiter.api.Test;

/** The bound on connections in all and per client address, and what counts as one address. */
class ConnectionLimitTest {

    private static ClientAddress address(final String ip) throws UnknownHostException {
        return ClientAddress.of(new InetSocketAddress(InetAddress.getByName(ip), 40_000));
    }

    @Test
    void anAddressAtItsShareIsRefusedWhileOtherAddressesStillFit() throws Exception {
        final ConnectionLimit limit = new ConnectionLimit(10, 2);
        final ClientAddress one = address("10.0.0.1");
        assertEquals(ConnectionLimit.Verdict.ADMITTED, limit.tryOpen(one));
        assertEquals(ConnectionLimit.Verdict.ADMITTED, limit.tryOpen(one));
        assertEquals(ConnectionLimit.Verdict.ADDRESS_FULL, limit.tryOpen(one));
        assertEquals(ConnectionLimit.Verdict.ADMITTED, limit.tryOpen(address("10.0.0.2")));
        assertEquals(3, limit.open(), "the refused one holds nothing");
        assertEquals(1, limit.refusedForAddress());
        assertEquals(1, limit.refused());
        limit.closed(one);
        assertEquals(ConnectionLimit.Verdict.ADMITTED, limit.tryOpen(one), "a closed slot of the address fits again");
    }

    @Test
    void theWholeBoundRefusesEveryAddressOnceFull() throws Exception {
        final ConnectionLimit limit = new ConnectionLimit(2, 2);
        assertEquals(ConnectionLimit.Verdict.ADMITTED, limit.tryOpen(address("10.0.0.1")));
        assertEquals(ConnectionLimit.Verdict.ADMITTED, limit.tryOpen(address("10.0.0.2")));
        assertEquals(ConnectionLimit.Verdict.FULL, limit.tryOpen(address("10.0.0.3")));
        assertEquals(0, limit.refusedForAddress());
        assertEquals(1, limit.refused());
    }

    @Test
    void anAddressIsForgottenOnceItHoldsNothingSoMemoryIsBoundedByTheOpenSlots() throws Exception {
        final ConnectionLimit limit = new ConnectionLimit(5, 5);
        for (int i = 0; i < 1_000; i++) {
            final ClientAddress churn = address("10.1." + (i / 250) + "." + (i % 250));
            assertEquals(ConnectionLimit.Verdict.ADMITTED, limit.tryOpen(churn));
            limit.closed(churn);
        }
        assertEquals(0, limit.addresses());
        assertEquals(0, limit.open());
    }

    @Test
    void ipv6AddressesOfOneSlash64CountAsOneAddressAndIpv4AddressesWhole() throws Exception {
        assertEquals(address("2001:db8:1:2::1"), address("2001:db8:1:2:ffff::9"));
        assertNotEquals(address("2001:db8:1:2::1"), address("2001:db8:1:3::1"));
        assertNotEquals(address("10.0.0.1"), address("10.0.0.2"));
        assertEquals("2001:db8:1:2::/64", address("2001:db8:1:2::1").toString());
        final ConnectionLimit limit = new ConnectionLimit(10, 1);
        assertEquals(ConnectionLimit.Verdict.ADMITTED, limit.tryOpen(address("2001:db8:1:2::1")));
        assertEquals(ConnectionLimit.Verdict.ADDRESS_FULL, limit.tryOpen(address("2001:db8:1:2::2")));
    }
}
