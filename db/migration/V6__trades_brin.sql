-- Cheaper trade rows (issue 33, item 5): three of the four btrees of trades become BRIN indexes.
--
-- Every trade row cost four btree insertions. Three of the keys grow with time: trade ids are handed out in order,
-- executed_at is the engine's clock, and the taker is always the newest order of its trade. On such keys a BRIN
-- index (a few pages: each range of table blocks summarised by its smallest and largest value) finds the same rows
-- for a range or an equality; it cannot give rows in order, so a query for the latest trades bounds them by time.
-- Measured with bench/persistence.sh (ddl= before this file existed), three alternating pairs: PostgreSQL's CPU per
-- order placed 12% lower (0.87, 0.80 and 0.90 of the btrees').
--
-- The trades indexes, and what each serves:
--   trades_trade_id_brin (trade_id)          a trade by id.
--   trades_executed_brin (executed_at)       trades in a time range, of a symbol or all (reports, reconciliation);
--                                            the latest trades of a symbol: add a time bound, e.g. the last day.
--   trades_taker_order_brin (taker_order_id) an order's fills as the taker.
--   trades_maker_order (maker_order_id)      an order's fills as the maker: a resting order can be filled at any
--                                            later time, so this key does not grow with the table and stays a btree.
--
-- trade_id loses its key. Exactly-once never rested on it (as with order_events since V2): every batch starts right
-- after the high-water mark and commits with the mark's move under the mark's row lock, and a second writer on the
-- same database is refused by the mark check and the orders key.

ALTER TABLE trades DROP CONSTRAINT trades_pkey;
DROP INDEX trades_symbol_executed;
DROP INDEX trades_taker_order;
CREATE INDEX trades_trade_id_brin ON trades USING brin (trade_id);
CREATE INDEX trades_executed_brin ON trades USING brin (executed_at);
CREATE INDEX trades_taker_order_brin ON trades USING brin (taker_order_id);
