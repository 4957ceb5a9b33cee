-- The PostgreSQL projection of the engine's events. The journal is the source of truth; these
-- tables are written only by the persistence writer, one transaction per batch of events, and the
-- batch commits together with the new high-water mark.
--
-- Prices and quantities are NUMERIC written at the instrument's scale (tick size scale for prices,
-- lot size scale for quantities), never floating point. Enum-like columns hold the API's names.

CREATE TABLE high_water_mark (
    id            SMALLINT    PRIMARY KEY CHECK (id = 1),
    last_sequence BIGINT      NOT NULL CHECK (last_sequence >= 0),
    updated_at    TIMESTAMPTZ NOT NULL
);
INSERT INTO high_water_mark (id, last_sequence, updated_at) VALUES (1, 0, now());

-- One row per order, its current state; last_sequence is the engine event that last changed it.
CREATE TABLE orders (
    order_id           BIGINT      PRIMARY KEY,
    client_order_id    TEXT,
    account_id         TEXT        NOT NULL,
    symbol             TEXT        NOT NULL,
    side               TEXT        NOT NULL CHECK (side IN ('BUY', 'SELL')),
    order_type         TEXT        NOT NULL CHECK (order_type IN ('LIMIT', 'MARKET')),
    time_in_force      TEXT        NOT NULL CHECK (time_in_force IN ('GTC', 'IOC', 'FOK')),
    post_only          BOOLEAN     NOT NULL,
    price              NUMERIC,
    quantity           NUMERIC     NOT NULL,
    status             TEXT        NOT NULL
        CHECK (status IN ('NEW', 'PARTIALLY_FILLED', 'FILLED', 'CANCELED', 'EXPIRED', 'REJECTED')),
    filled_quantity    NUMERIC     NOT NULL,
    remaining_quantity NUMERIC     NOT NULL,
    reject_reason      TEXT,
    created_at         TIMESTAMPTZ NOT NULL,
    updated_at         TIMESTAMPTZ NOT NULL,
    last_sequence      BIGINT      NOT NULL
);
-- An account's orders by status and time.
CREATE INDEX orders_account_status_created ON orders (account_id, status, created_at);

-- One row per execution, at the maker's price.
CREATE TABLE trades (
    trade_id         BIGINT      PRIMARY KEY,
    sequence         BIGINT      NOT NULL,
    symbol           TEXT        NOT NULL,
    price            NUMERIC     NOT NULL,
    quantity         NUMERIC     NOT NULL,
    taker_side       TEXT        NOT NULL CHECK (taker_side IN ('BUY', 'SELL')),
    taker_order_id   BIGINT      NOT NULL,
    taker_account_id TEXT        NOT NULL,
    maker_order_id   BIGINT      NOT NULL,
    maker_account_id TEXT        NOT NULL,
    executed_at      TIMESTAMPTZ NOT NULL
);
-- A symbol's trades by time.
CREATE INDEX trades_symbol_executed ON trades (symbol, executed_at);
-- The trades of an order, on either side.
CREATE INDEX trades_taker_order ON trades (taker_order_id);
CREATE INDEX trades_maker_order ON trades (maker_order_id);

-- Append-only: one row per engine event, keyed by its sequence (1, 2, 3, ... without gaps).
--   ORDER_ACCEPTED: order_id, side, price (NULL for MARKET), quantity, status NEW
--   TRADE:          order_id = the taker, side = taker side, price/quantity of the execution,
--                   filled_quantity = taker's cumulative fill, trade_id, maker_order_id,
--                   maker_filled_quantity, maker_status
--   ORDER_UPDATED:  order_id, side, price, quantity, status, filled_quantity,
--                   remaining_quantity, reject_reason
CREATE TABLE order_events (
    sequence              BIGINT      PRIMARY KEY,
    command_sequence      BIGINT      NOT NULL,
    event_type            TEXT        NOT NULL CHECK (event_type IN ('ORDER_ACCEPTED', 'TRADE', 'ORDER_UPDATED')),
    occurred_at           TIMESTAMPTZ NOT NULL,
    symbol                TEXT        NOT NULL,
    order_id              BIGINT      NOT NULL,
    side                  TEXT        NOT NULL,
    price                 NUMERIC,
    quantity              NUMERIC     NOT NULL,
    filled_quantity       NUMERIC,
    remaining_quantity    NUMERIC,
    status                TEXT,
    reject_reason         TEXT,
    trade_id              BIGINT,
    maker_order_id        BIGINT,
    maker_filled_quantity NUMERIC,
    maker_status          TEXT
);
