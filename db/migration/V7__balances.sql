-- Balances and pre-trade risk (issue 36), written only with ORDERS_RISK=balances.
--
-- The engine holds every account's balance per asset and emits one BALANCE_CHANGED event per change (its sequence is
-- an engine event sequence like an order event's, so order_events lists it too, with its order and nothing else).
-- balance_ledger keeps every one of them: the ledger a back office reconciles against, exactly once (committed with
-- the high-water mark like every other table). balances holds each account's current
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

-- The ledger is packed like the events (V5): one row of arrays per written batch, element i being the batch's i-th
-- balance event, since PostgreSQL's CPU per order is mostly rows, and a trade moves up to six balances. The balance
-- events are not consecutive (order events lie between them), so the batch keeps their sequences too. balance_ledger
-- reads as one row per movement; balance_statement(account, asset) reads one account's, through the GIN index on
-- the batches' accounts, without unpacking the others.
CREATE TABLE balance_ledger_batches (
    first_sequence   BIGINT        NOT NULL,
    last_sequence    BIGINT        NOT NULL,
    sequence         BIGINT[]      NOT NULL,
    command_sequence BIGINT[]      NOT NULL,
    occurred_at      TIMESTAMPTZ[] NOT NULL,
    account_id       TEXT[]        NOT NULL,
    asset            TEXT[]        NOT NULL,
    cause            TEXT[]        NOT NULL,
    available_change NUMERIC[]     NOT NULL,
    held_change      NUMERIC[]     NOT NULL,
    fee              NUMERIC[]     NOT NULL,
    available        NUMERIC[]     NOT NULL,
    held             NUMERIC[]     NOT NULL,
    order_id         BIGINT[]      NOT NULL,
    trade_id         BIGINT[]      NOT NULL,
    reference        TEXT[]        NOT NULL
);
ALTER TABLE balance_ledger_batches
    ALTER COLUMN sequence SET STORAGE EXTERNAL, ALTER COLUMN command_sequence SET STORAGE EXTERNAL,
    ALTER COLUMN occurred_at SET STORAGE EXTERNAL, ALTER COLUMN account_id SET STORAGE EXTERNAL,
    ALTER COLUMN asset SET STORAGE EXTERNAL, ALTER COLUMN cause SET STORAGE EXTERNAL,
    ALTER COLUMN available_change SET STORAGE EXTERNAL, ALTER COLUMN held_change SET STORAGE EXTERNAL,
    ALTER COLUMN fee SET STORAGE EXTERNAL, ALTER COLUMN available SET STORAGE EXTERNAL,
    ALTER COLUMN held SET STORAGE EXTERNAL, ALTER COLUMN order_id SET STORAGE EXTERNAL,
    ALTER COLUMN trade_id SET STORAGE EXTERNAL, ALTER COLUMN reference SET STORAGE EXTERNAL;
-- exactly once: a batch's first balance event is stored once
CREATE UNIQUE INDEX balance_ledger_batches_first_sequence ON balance_ledger_batches (first_sequence);
-- the batches an account moved in
CREATE INDEX balance_ledger_batches_accounts ON balance_ledger_batches USING gin (account_id);

CREATE VIEW balance_ledger AS
SELECT e.sequence, e.command_sequence, e.occurred_at, e.account_id, e.asset, e.cause, e.available_change,
       e.held_change, e.fee, e.available, e.held, e.order_id, e.trade_id, e.reference
FROM balance_ledger_batches b,
     LATERAL unnest(b.sequence, b.command_sequence, b.occurred_at, b.account_id, b.asset, b.cause,
                    b.available_change, b.held_change, b.fee, b.available, b.held, b.order_id, b.trade_id,
                    b.reference)
         AS e(sequence, command_sequence, occurred_at, account_id, asset, cause, available_change, held_change, fee,
              available, held, order_id, trade_id, reference);

-- One account's movements of one asset (NULL: every asset), in engine order: its statement.
CREATE FUNCTION balance_statement(account TEXT, asset_name TEXT)
    RETURNS SETOF balance_ledger LANGUAGE sql STABLE AS $$
SELECT * FROM (
    SELECT e.sequence, e.command_sequence, e.occurred_at, e.account_id, e.asset, e.cause, e.available_change,
           e.held_change, e.fee, e.available, e.held, e.order_id, e.trade_id, e.reference
    FROM balance_ledger_batches b,
         LATERAL unnest(b.sequence, b.command_sequence, b.occurred_at, b.account_id, b.asset, b.cause,
                        b.available_change, b.held_change, b.fee, b.available, b.held, b.order_id, b.trade_id,
                        b.reference)
             AS e(sequence, command_sequence, occurred_at, account_id, asset, cause, available_change, held_change,
                  fee, available, held, order_id, trade_id, reference)
    WHERE b.account_id @> ARRAY[account]
) s WHERE s.account_id = account AND (asset_name IS NULL OR s.asset = asset_name) ORDER BY s.sequence
$$;
