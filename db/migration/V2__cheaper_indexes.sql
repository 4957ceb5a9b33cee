-- Fewer and cheaper index insertions per order (issue 11). Each remaining index and the query it serves:
--
--   orders_pkey (order_id)                 the writer's UPDATE ... FROM of changed orders; an order by id.
--   orders_open_by_account (account_id, order_id) WHERE status IN ('NEW', 'PARTIALLY_FILLED')
--                                          an account's open orders, oldest first (GET /api/v1/orders in SQL).
--   trades_pkey (trade_id)                 a trade by id; a trade written twice is a key violation.
--   trades_symbol_executed (symbol, executed_at)
--                                          a symbol's trades by time (GET /api/v1/trades/{symbol} in SQL).
--   trades_taker_order, trades_maker_order an order's fills and average price, on either side.
--   order_events_sequence_brin (sequence)  events by sequence range (catching up, gap checks); a BRIN index
--                                          on an append-only, increasing key is a few pages instead of one
--                                          btree entry per event.
--
-- order_events loses its primary key. Exactly-once does not rest on it: every batch starts right after the
-- high-water mark and commits together with the mark's move, under the mark's row lock, so an event can only
-- be written twice by a second writer on the same database, which the orders and trades keys (every batch
-- that places an order inserts into orders) and the mark check still refuse. The btree on the event sequence
-- was about a third of that table's COPY cost.

DROP INDEX orders_account_status_created;
CREATE INDEX orders_open_by_account ON orders (account_id, order_id)
    WHERE status IN ('NEW', 'PARTIALLY_FILLED');

ALTER TABLE order_events DROP CONSTRAINT order_events_pkey;
CREATE INDEX order_events_sequence_brin ON order_events USING brin (sequence);
