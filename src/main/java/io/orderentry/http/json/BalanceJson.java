package io.orderentry.http.json;

import io.orderentry.instrument.Assets;
import io.orderentry.query.BalanceBook;
import io.vertx.core.buffer.Buffer;

/**
 * Balances as the API shows them ({@code ../shared/API.md}, "Balances and pre-trade risk"): per asset
 * {@code {"asset","total","available","held"}}, amounts as decimal strings at the asset's scale.
 */
public final class BalanceJson {

    private final Json json;
    private final Assets assets;

    public BalanceJson(final Json json, final Assets assets) {
        this.json = json;
        this.assets = assets;
    }

    /**
     * {@code GET /api/v1/balances}: the account's balance of every asset it has held, in the assets' order (those it
     * never had left out); {@code []} for an account without balances.
     */
    public Buffer balances(final BalanceBook.Balances balances) {
        return json.write(g -> {
            g.writeStartArray();
            if (balances != null) {
                for (int asset = 0; asset < balances.available().length && asset < assets.names().size(); asset++) {
                    final long available = balances.available()[asset];
                    final long held = balances.held()[asset];
                    if (available == 0 && held == 0) {
                        continue;
                    }
                    g.writeStartObject();
                    g.writeStringField("asset", assets.names().get(asset));
                    g.writeStringField("total", assets.amount(asset, available + held).toPlainString());
                    g.writeStringField("available", assets.amount(asset, available).toPlainString());
                    g.writeStringField("held", assets.amount(asset, held).toPlainString());
                    g.writeEndObject();
                }
            }
            g.writeEndArray();
        });
    }

    /** A funding's answer: {@code {"accountId","asset","total","available","held","sequence"}}. */
    public Buffer funding(final String accountId, final int asset, final long available, final long held,
                          final long sequence) {
        return json.write(g -> {
            g.writeStartObject();
            g.writeStringField("accountId", accountId);
            g.writeStringField("asset", assets.names().get(asset));
            g.writeStringField("total", assets.amount(asset, available + held).toPlainString());
            g.writeStringField("available", assets.amount(asset, available).toPlainString());
            g.writeStringField("held", assets.amount(asset, held).toPlainString());
            g.writeNumberField("sequence", sequence);
            g.writeEndObject();
        });
    }
}
