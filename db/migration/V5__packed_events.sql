-- Engine events packed by batch (issue 33, item 5): PostgreSQL's CPU per order was mostly rows, not bytes.
--
-- Every transaction of the writer stores one batch of consecutive engine events (first_sequence ..
-- last_sequence, up to persistence.batch-size of them) as ONE row of order_event_batches: one array per
-- column, element i being the event first_sequence + i - 1. Before V5 each event was a row of its own, 2.4 rows
-- per order placed, each paying the per-row work of COPY (a tuple, its slot, a heap insertion, WAL); now a batch
-- pays it once and each event only the parsing of its values. The arrays are stored uncompressed out of line
-- (STORAGE EXTERNAL): lz4 compression measured the same CPU per order and needs a server built with lz4.
--
-- order_events keeps its name, columns, types and meaning as a view: the events stored before V5 (still one row
-- each, in order_events_v4, untouched by this migration) followed by the unpacked batches. Exactly-once is
-- unchanged: every batch starts right after the high-water mark and commits with its move under the mark's row
-- lock. order_events_between(from, to) answers a sequence range with the batches' index (a filter on the view's
-- sequence has to unpack every batch first).

ALTER TABLE order_events RENAME TO order_events_v4;
ALTER INDEX order_events_sequence_brin RENAME TO order_events_v4_sequence_brin;

CREATE TABLE order_event_batches (
    first_sequence        BIGINT        NOT NULL,
    last_sequence         BIGINT        NOT NULL,
    command_sequence      BIGINT[]      NOT NULL,
    event_type            TEXT[]        NOT NULL,
    occurred_at           TIMESTAMPTZ[] NOT NULL,
    symbol                TEXT[]        NOT NULL,
    order_id              BIGINT[]      NOT NULL,
    side                  TEXT[]        NOT NULL,
    price                 NUMERIC[]     NOT NULL,
    quantity              NUMERIC[]     NOT NULL,
    filled_quantity       NUMERIC[]     NOT NULL,
    remaining_quantity    NUMERIC[]     NOT NULL,
    status                TEXT[]        NOT NULL,
    reject_reason         TEXT[]        NOT NULL,
    trade_id              BIGINT[]      NOT NULL,
    maker_order_id        BIGINT[]      NOT NULL,
    maker_filled_quantity NUMERIC[]     NOT NULL,
    maker_status          TEXT[]        NOT NULL,
    previous_price        NUMERIC[]     NOT NULL,
    previous_quantity     NUMERIC[]     NOT NULL,
    kept_priority         BOOLEAN[]     NOT NULL
);
ALTER TABLE order_event_batches
    ALTER COLUMN command_sequence SET STORAGE EXTERNAL, ALTER COLUMN event_type SET STORAGE EXTERNAL,
    ALTER COLUMN occurred_at SET STORAGE EXTERNAL, ALTER COLUMN symbol SET STORAGE EXTERNAL,
    ALTER COLUMN order_id SET STORAGE EXTERNAL, ALTER COLUMN side SET STORAGE EXTERNAL,
    ALTER COLUMN price SET STORAGE EXTERNAL, ALTER COLUMN quantity SET STORAGE EXTERNAL,
    ALTER COLUMN filled_quantity SET STORAGE EXTERNAL, ALTER COLUMN remaining_quantity SET STORAGE EXTERNAL,
    ALTER COLUMN status SET STORAGE EXTERNAL, ALTER COLUMN reject_reason SET STORAGE EXTERNAL,
    ALTER COLUMN trade_id SET STORAGE EXTERNAL, ALTER COLUMN maker_order_id SET STORAGE EXTERNAL,
    ALTER COLUMN maker_filled_quantity SET STORAGE EXTERNAL, ALTER COLUMN maker_status SET STORAGE EXTERNAL,
    ALTER COLUMN previous_price SET STORAGE EXTERNAL, ALTER COLUMN previous_quantity SET STORAGE EXTERNAL,
    ALTER COLUMN kept_priority SET STORAGE EXTERNAL;
-- One entry per batch: the batch holding a sequence, and ranges of them.
CREATE INDEX order_event_batches_first_sequence ON order_event_batches (first_sequence);

CREATE VIEW order_events AS
SELECT sequence, command_sequence, event_type, occurred_at, symbol, order_id, side, price, quantity, filled_quantity,
       remaining_quantity, status, reject_reason, trade_id, maker_order_id, maker_filled_quantity, maker_status,
       previous_price, previous_quantity, kept_priority
FROM order_events_v4
UNION ALL
SELECT b.first_sequence + e.n - 1, e.command_sequence, e.event_type, e.occurred_at, e.symbol, e.order_id, e.side,
       e.price, e.quantity, e.filled_quantity, e.remaining_quantity, e.status, e.reject_reason, e.trade_id,
       e.maker_order_id, e.maker_filled_quantity, e.maker_status, e.previous_price, e.previous_quantity,
       e.kept_priority
FROM order_event_batches b,
     LATERAL unnest(b.command_sequence, b.event_type, b.occurred_at, b.symbol, b.order_id, b.side, b.price,
                    b.quantity, b.filled_quantity, b.remaining_quantity, b.status, b.reject_reason, b.trade_id,
                    b.maker_order_id, b.maker_filled_quantity, b.maker_status, b.previous_price,
                    b.previous_quantity, b.kept_priority)
         WITH ORDINALITY AS e(command_sequence, event_type, occurred_at, symbol, order_id, side, price, quantity,
                              filled_quantity, remaining_quantity, status, reject_reason, trade_id, maker_order_id,
                              maker_filled_quantity, maker_status, previous_price, previous_quantity,
                              kept_priority, n);

-- The events from_sequence .. to_sequence, in order, reading only the batches that hold them: the batches are
-- consecutive, so they start from the last batch that begins at or before from_sequence.
CREATE FUNCTION order_events_between(from_sequence BIGINT, to_sequence BIGINT)
    RETURNS SETOF order_events LANGUAGE sql STABLE AS $$
SELECT * FROM (
    SELECT * FROM order_events_v4 WHERE sequence BETWEEN from_sequence AND to_sequence
    UNION ALL
    SELECT b.first_sequence + e.n - 1, e.command_sequence, e.event_type, e.occurred_at, e.symbol, e.order_id,
           e.side, e.price, e.quantity, e.filled_quantity, e.remaining_quantity, e.status, e.reject_reason,
           e.trade_id, e.maker_order_id, e.maker_filled_quantity, e.maker_status, e.previous_price,
           e.previous_quantity, e.kept_priority
    FROM order_event_batches b,
         LATERAL unnest(b.command_sequence, b.event_type, b.occurred_at, b.symbol, b.order_id, b.side, b.price,
                        b.quantity, b.filled_quantity, b.remaining_quantity, b.status, b.reject_reason, b.trade_id,
                        b.maker_order_id, b.maker_filled_quantity, b.maker_status, b.previous_price,
                        b.previous_quantity, b.kept_priority)
             WITH ORDINALITY AS e(command_sequence, event_type, occurred_at, symbol, order_id, side, price,
                                  quantity, filled_quantity, remaining_quantity, status, reject_reason, trade_id,
                                  maker_order_id, maker_filled_quantity, maker_status, previous_price,
                                  previous_quantity, kept_priority, n)
    WHERE b.first_sequence <= to_sequence
      AND b.first_sequence >= COALESCE((SELECT max(first_sequence) FROM order_event_batches
                                        WHERE first_sequence <= from_sequence), from_sequence)
      AND b.first_sequence + e.n - 1 BETWEEN from_sequence AND to_sequence
) events
ORDER BY 1
$$;
