package io.orderentry.http.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.orderentry.config.ConfigReader;
import io.orderentry.http.ApiException;
import io.orderentry.instrument.Assets;
import io.orderentry.instrument.Instrument;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The funding body: amounts in the asset's units, and every refusal with its status, code and field. */
class FundingRequestTest {

    private static final Assets ASSETS;

    static {
        final Properties p = new Properties();
        p.putAll(Map.of("risk", "balances", "assets", "", "instrument.assets", "", "fees", "", "fee.account", "fees"));
        ASSETS = Assets.from(new ConfigReader(p), List.of(new Instrument(0, "BTCUSD", new BigDecimal("0.01"),
                new BigDecimal("0.0001"), 1_000_000_000, 1_000_000_000)));
    }

    private static FundingRequest parse(final String body) {
        return FundingRequest.parse(new ObjectMapper(), body.getBytes(StandardCharsets.UTF_8), ASSETS);
    }

    private static void assertRefused(final int status, final String code, final String body) {
        final ApiException e = assertThrows(ApiException.class, () -> parse(body), body);
        assertEquals(List.of(status, code), List.of(e.error().status(), e.error().code()), body);
    }

    @Test
    void anAmountIsCountedInTheAssetsUnitsAndMayBeANegativeWithdrawalOrAJsonNumber() {
        assertEquals(new FundingRequest(1, 1_000_500_000L, "dep-1"),
                parse("{\"asset\":\"USD\",\"amount\":\"1000.5\",\"reference\":\"dep-1\"}"));
        assertEquals(new FundingRequest(0, -25, "wd:1"), parse("{\"asset\":\"BTC\",\"amount\":-0.0025,\"reference\":\"wd:1\"}"));
    }

    @Test
    void everyMalformedOrUnacceptableBodyIsRefusedWithItsCode() {
        assertRefused(400, "INVALID_JSON", "");
        assertRefused(400, "INVALID_JSON", "[1]");
        assertRefused(400, "INVALID_JSON", "{\"asset\":");
        assertRefused(400, "UNKNOWN_FIELD", "{\"asset\":\"USD\",\"amount\":\"1\",\"reference\":\"r\",\"x\":1}");
        assertRefused(400, "MISSING_FIELD", "{\"amount\":\"1\",\"reference\":\"r\"}");
        assertRefused(400, "MISSING_FIELD", "{\"asset\":\"USD\",\"reference\":\"r\"}");
        assertRefused(400, "INVALID_TYPE", "{\"asset\":\"USD\",\"amount\":\"ten\",\"reference\":\"r\"}");
        assertRefused(400, "INVALID_TYPE", "{\"asset\":\"USD\",\"amount\":true,\"reference\":\"r\"}");
        assertRefused(400, "INVALID_TYPE", "{\"asset\":7,\"amount\":\"1\",\"reference\":\"r\"}");
        assertRefused(422, "UNKNOWN_ASSET", "{\"asset\":\"DOGE\",\"amount\":\"1\",\"reference\":\"r\"}");
        assertRefused(422, "INVALID_AMOUNT", "{\"asset\":\"USD\",\"amount\":\"0\",\"reference\":\"r\"}");
        assertRefused(422, "INVALID_AMOUNT", "{\"asset\":\"USD\",\"amount\":\"0.0000001\",\"reference\":\"r\"}");
        assertRefused(422, "INVALID_AMOUNT", "{\"asset\":\"USD\",\"amount\":\"1e30\",\"reference\":\"r\"}");
        assertRefused(422, "INVALID_REFERENCE", "{\"asset\":\"USD\",\"amount\":\"1\",\"reference\":\"a b\"}");
        assertRefused(422, "INVALID_REFERENCE", "{\"asset\":\"USD\",\"amount\":\"1\",\"reference\":\"\"}");
    }
}
