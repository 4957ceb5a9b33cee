-- Order operations (issue 15): amends, cancel-all, self-trade prevention, price bands.
--
-- order_events gains the amend event and its previous terms:
--   ORDER_AMENDED:  order_id, side, price = the new price, quantity = the new total quantity (filled plus
--                   remaining), filled_quantity = what the order had filled before the amend,
--                   previous_price, previous_quantity = its terms before the amend, kept_priority = it kept its
--                   place in the queue (same price, quantity not larger); status, remaining_quantity and
--                   reject_reason are NULL: the ORDER_UPDATED of the same command (after any trades the amended
--                   order made at its new price, as the taker) says what the amend left it as.
--   previous_price, previous_quantity, kept_priority are NULL on every other event type.
-- Cancels from a cancel-all (reject_reason CANCEL_ALL, CANCEL_ALL_AFTER) and from self-trade prevention
-- (SELF_TRADE_PREVENTED, on CANCELED makers and EXPIRED takers) and orders stopped by a price band
-- (PRICE_OUTSIDE_BAND) are ORDER_UPDATED rows as before: reject_reason has no CHECK, so they need no change here.
--
-- orders gains each order's self-trade prevention mode; an amend changes its row's price, quantity,
-- remaining_quantity, updated_at and last_sequence, as the writer does for any change of an order.
--
-- Both CHECKs are added NOT VALID: PostgreSQL then checks them for every new or changed row but does not read the
-- rows already stored, which on a long-running database is every event ever made. Those rows satisfy them anyway:
-- the old event_type CHECK was narrower than the new one, and every existing order gets the default 'NONE'.

ALTER TABLE order_events DROP CONSTRAINT order_events_event_type_check;
ALTER TABLE order_events ADD CONSTRAINT order_events_event_type_check
    CHECK (event_type IN ('ORDER_ACCEPTED', 'TRADE', 'ORDER_UPDATED', 'ORDER_AMENDED')) NOT VALID;

ALTER TABLE order_events
    ADD COLUMN previous_price    NUMERIC,
    ADD COLUMN previous_quantity NUMERIC,
    ADD COLUMN kept_priority     BOOLEAN;

-- NONE for every order placed before: the engine gave them none. A constant default adds the column without
-- rewriting the table.
ALTER TABLE orders ADD COLUMN self_trade_prevention TEXT NOT NULL DEFAULT 'NONE';
ALTER TABLE orders ADD CONSTRAINT orders_self_trade_prevention_check
    CHECK (self_trade_prevention IN ('NONE', 'EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH')) NOT VALID;
