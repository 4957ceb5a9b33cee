package io.orderentry.http.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.orderentry.engine.RiskRules;
import io.orderentry.http.ApiError;
import io.orderentry.instrument.Assets;
import java.math.BigDecimal;
import java.util.Set;

/**
 * The body of {@code POST /admin/balances/{accountId}}: {@code {"asset":"USD","amount":"1000.00","reference":"dep-1"}}.
 * 400 for what is malformed (not one JSON object, a missing, unknown or mistyped field, an amount that is not a
 * decimal); 422 for an unknown asset ({@code UNKNOWN_ASSET}), an amount of 0, finer than the asset's scale or beyond the
 * largest supply ({@code INVALID_AMOUNT}), or a reference that is not 1-64 of {@code [A-Za-z0-9_.:-]}
 * ({@code INVALID_REFERENCE}).
 *
 * @param asset     the asset's index
 * @param amount    in units of the asset: negative for a withdrawal, never 0
 * @param reference the funding's idempotency key
 */
public record FundingRequest(int asset, long amount, String reference) {

    private static final Set<String> FIELDS = Set.of("asset", "amount", "reference");
    private static final String REFERENCE = "[A-Za-z0-9_.:-]{1,64}";

    public static FundingRequest parse(final ObjectMapper mapper, final byte[] body, final Assets assets) {
        final JsonNode root = RequestBodies.object(mapper, body, FIELDS);
        final String assetName = text(root, "asset");
        final int asset = assets.indexOf(assetName);
        if (asset < 0) {
            throw ApiError.unprocessable("UNKNOWN_ASSET", "asset '" + assetName + "' is not traded here; the assets are "
                    + assets.names(), "asset").toException();
        }
        final JsonNode amountNode = root.get("amount");
        if (amountNode == null || amountNode.isNull()) {
            throw ApiError.badRequest("MISSING_FIELD", "amount is required", "amount").toException();
        }
        final BigDecimal amount;
        try {
            if (amountNode.isTextual()) {
                amount = new BigDecimal(amountNode.textValue());
            } else if (amountNode.isNumber()) {
                amount = amountNode.decimalValue();
            } else {
                throw new NumberFormatException();
            }
        } catch (final NumberFormatException e) {
            throw ApiError.badRequest("INVALID_TYPE", "amount must be a decimal string (\"1000.00\"), negative for a"
                    + " withdrawal", "amount").toException();
        }
        final BigDecimal units = amount.movePointRight(assets.scale(asset));
        if (amount.signum() == 0 || units.stripTrailingZeros().scale() > 0
                || units.abs().compareTo(BigDecimal.valueOf(RiskRules.MAX_SUPPLY)) > 0) {
            throw ApiError.unprocessable("INVALID_AMOUNT", "amount must not be 0, must have at most "
                    + assets.scale(asset) + " decimals (" + assetName + "'s scale) and stay within "
                    + assets.amount(asset, RiskRules.MAX_SUPPLY).toPlainString(), "amount").toException();
        }
        final String reference = text(root, "reference");
        if (!reference.matches(REFERENCE)) {
            throw ApiError.unprocessable("INVALID_REFERENCE", "reference must be 1-64 of [A-Za-z0-9_.:-]",
                    "reference").toException();
        }
        return new FundingRequest(asset, units.longValueExact(), reference);
    }

    private static String text(final JsonNode root, final String field) {
        final JsonNode node = root.get(field);
        if (node == null || node.isNull()) {
            throw ApiError.badRequest("MISSING_FIELD", field + " is required", field).toException();
        }
        if (!node.isTextual()) {
            throw ApiError.badRequest("INVALID_TYPE", field + " must be a string", field).toException();
        }
        return node.textValue();
    }
}
