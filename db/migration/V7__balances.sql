-- Balances and pre-trade risk (issue 36), written only with ORDERS_RISK=balances.
--
-- The engine holds every account's balance per asset and emits one BALANCE_CHANGED event per change (its sequence is
-- an engine event sequence like an order event's, so order_events lists it too, with its order and nothing else).
-- balance_ledger keeps every one of them: the ledger a back office reconciles against, exactly once (keyed by the
-- sequence, committed with the high-water mark like every other table). balances holds each account's current
-- balance per asset, applied in sequence order (last_sequence guards it).
--
-- Amounts are NUMERIC at the asset's scale (ORDERS_ASSETS). total = available + held. What each cause means:
--   DEPOSIT, WITHDRAWAL  the admin funding endpoint (reference = its idempotency key); available changes
--   HOLD, RELEASE        an order's funds move between available and held (order_id)
--   TRADE                a trade's payment or receipt (order_id, trade_id); fee is what was kept of a receipt
--   FEE                  the fee account received a trade's fee (order_id of the side that paid it)

CREATE TABLE balances (
    account_id    TEXT        NOT NULL,
    asset         TEXT        NOT NULL,
    available     NUMERIC     NOT NULL CHECK (available >= 0),
    held          NUMERIC     NOT NULL CHECK (held >= 0),
    total         NUMERIC     GENERATED ALWAYS AS (available + held) STORED,
    updated_at    TIMESTAMPTZ NOT NULL,
    last_sequence BIGINT      NOT NULL,
    PRIMARY KEY (account_id, asset)
);

CREATE TABLE balance_ledger (
    sequence         BIGINT      PRIMARY KEY,
    command_sequence BIGINT      NOT NULL,
    occurred_at      TIMESTAMPTZ NOT NULL,
    account_id       TEXT        NOT NULL,
    asset            TEXT        NOT NULL,
    cause            TEXT        NOT NULL
        CHECK (cause IN ('DEPOSIT', 'WITHDRAWAL', 'HOLD', 'RELEASE', 'TRADE', 'FEE')),
    available_change NUMERIC     NOT NULL,
    held_change      NUMERIC     NOT NULL,
    fee              NUMERIC     NOT NULL,
    available        NUMERIC     NOT NULL,
    held             NUMERIC     NOT NULL,
    order_id         BIGINT,
    trade_id         BIGINT,
    reference        TEXT
);
-- An account's statement: its movements of one asset in order.
CREATE INDEX balance_ledger_account_asset_sequence ON balance_ledger (account_id, asset, sequence);
-- Fundings by reference, for reconciliation with the payment system.
CREATE INDEX balance_ledger_reference ON balance_ledger (reference) WHERE reference IS NOT NULL;
