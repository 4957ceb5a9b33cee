package io.orderentry.persistence;

import io.orderentry.engine.RejectReason;
import io.orderentry.pipeline.EngineEvent;
import io.orderentry.pipeline.EventType;

/**
 * The columns of {@code order_events} after its sequence, in the table's order, and what each event type puts in
 * them (see {@code V1__orders_trades_events.sql} and {@code V3__order_operations.sql}). A batch is stored as one row
 * of {@code order_event_batches} holding one array per column ({@code V5__packed_events.sql}): {@link BatchCopy}
 * writes each column's array by asking its constant for every event's element.
 */
enum EventColumn {

    COMMAND_SEQUENCE(CopyBinary.BIGINT_OID) {
        @Override
        void write(final CopyBinary out, final EngineEvent e, final InstrumentColumns.Columns symbol) {
            out.number(e.commandSequence);
        }
    },
    EVENT_TYPE(CopyBinary.TEXT_OID) {
        @Override
        void write(final CopyBinary out, final EngineEvent e, final InstrumentColumns.Columns symbol) {
            out.name(e.type);
        }
    },
    OCCURRED_AT(CopyBinary.TIMESTAMPTZ_OID) {
        @Override
        void write(final CopyBinary out, final EngineEvent e, final InstrumentColumns.Columns symbol) {
            out.timestamp(e.timestampMicros);
        }
    },
    SYMBOL(CopyBinary.TEXT_OID) {
        @Override
        void write(final CopyBinary out, final EngineEvent e, final InstrumentColumns.Columns symbol) {
            out.text(symbol.name());
        }
    },
    /** The taker for a trade. */
    ORDER_ID(CopyBinary.BIGINT_OID) {
        @Override
        void write(final CopyBinary out, final EngineEvent e, final InstrumentColumns.Columns symbol) {
            out.number(e.type == EventType.TRADE ? e.takerOrderId : e.orderId);
        }
    },
    SIDE(CopyBinary.TEXT_OID) {
        @Override
        void write(final CopyBinary out, final EngineEvent e, final InstrumentColumns.Columns symbol) {
            out.name(e.type == EventType.TRADE ? e.takerSide : e.side);
        }
    },
    /** NULL for a MARKET order's acceptance and updates; a trade's is the execution's. */
    PRICE(CopyBinary.NUMERIC_OID) {
        @Override
        void write(final CopyBinary out, final EngineEvent e, final InstrumentColumns.Columns symbol) {
            if (e.price == 0 && (e.type == EventType.ORDER_ACCEPTED || e.type == EventType.ORDER_UPDATED)) {
                out.nullValue();
            } else {
                out.decimal(e.price, symbol.price());
            }
        }
    },
    QUANTITY(CopyBinary.NUMERIC_OID) {
        @Override
        void write(final CopyBinary out, final EngineEvent e, final InstrumentColumns.Columns symbol) {
            out.decimal(e.quantity, symbol.quantity());
        }
    },
    /** The taker's cumulative fill for a trade; what the order had filled before, for an amend. */
    FILLED_QUANTITY(CopyBinary.NUMERIC_OID) {
        @Override
        void write(final CopyBinary out, final EngineEvent e, final InstrumentColumns.Columns symbol) {
            final long filled = switch (e.type) {
                case ORDER_ACCEPTED -> 0;
                case TRADE -> e.takerFilledQuantity;
                default -> e.filledQuantity;
            };
            out.decimal(filled, symbol.quantity());
        }
    },
    REMAINING_QUANTITY(CopyBinary.NUMERIC_OID) {
        @Override
        void write(final CopyBinary out, final EngineEvent e, final InstrumentColumns.Columns symbol) {
            if (e.type == EventType.ORDER_UPDATED) {
                out.decimal(e.remainingQuantity, symbol.quantity());
            } else {
                out.nullValue();
            }
        }
    },
    STATUS(CopyBinary.TEXT_OID) {
        @Override
        void write(final CopyBinary out, final EngineEvent e, final InstrumentColumns.Columns symbol) {
            out.name(e.type == EventType.ORDER_ACCEPTED || e.type == EventType.ORDER_UPDATED ? e.status : null);
        }
    },
    REJECT_REASON(CopyBinary.TEXT_OID) {
        @Override
        void write(final CopyBinary out, final EngineEvent e, final InstrumentColumns.Columns symbol) {
            out.name(e.type == EventType.ORDER_UPDATED && e.rejectReason != RejectReason.NONE ? e.rejectReason : null);
        }
    },
    TRADE_ID(CopyBinary.BIGINT_OID) {
        @Override
        void write(final CopyBinary out, final EngineEvent e, final InstrumentColumns.Columns symbol) {
            if (e.type == EventType.TRADE) {
                out.number(e.tradeId);
            } else {
                out.nullValue();
            }
        }
    },
    MAKER_ORDER_ID(CopyBinary.BIGINT_OID) {
        @Override
        void write(final CopyBinary out, final EngineEvent e, final InstrumentColumns.Columns symbol) {
            if (e.type == EventType.TRADE) {
                out.number(e.makerOrderId);
            } else {
                out.nullValue();
            }
        }
    },
    MAKER_FILLED_QUANTITY(CopyBinary.NUMERIC_OID) {
        @Override
        void write(final CopyBinary out, final EngineEvent e, final InstrumentColumns.Columns symbol) {
            if (e.type == EventType.TRADE) {
                out.decimal(e.makerFilledQuantity, symbol.quantity());
            } else {
                out.nullValue();
            }
        }
    },
    MAKER_STATUS(CopyBinary.TEXT_OID) {
        @Override
        void write(final CopyBinary out, final EngineEvent e, final InstrumentColumns.Columns symbol) {
            out.name(e.type == EventType.TRADE ? e.makerStatus : null);
        }
    },
    PREVIOUS_PRICE(CopyBinary.NUMERIC_OID) {
        @Override
        void write(final CopyBinary out, final EngineEvent e, final InstrumentColumns.Columns symbol) {
            if (e.type == EventType.ORDER_AMENDED) {
                out.decimal(e.previousPrice, symbol.price());
            } else {
                out.nullValue();
            }
        }
    },
    PREVIOUS_QUANTITY(CopyBinary.NUMERIC_OID) {
        @Override
        void write(final CopyBinary out, final EngineEvent e, final InstrumentColumns.Columns symbol) {
            if (e.type == EventType.ORDER_AMENDED) {
                out.decimal(e.previousQuantity, symbol.quantity());
            } else {
                out.nullValue();
            }
        }
    },
    KEPT_PRIORITY(CopyBinary.BOOLEAN_OID) {
        @Override
        void write(final CopyBinary out, final EngineEvent e, final InstrumentColumns.Columns symbol) {
            if (e.type == EventType.ORDER_AMENDED) {
                out.bool(e.keptPriority);
            } else {
                out.nullValue();
            }
        }
    };

    private static final EventColumn[] ALL = values();

    /** The type OID of the column's array elements. */
    final int elementOid;

    EventColumn(final int elementOid) {
        this.elementOid = elementOid;
    }

    /** Appends the event's element of this column's array: its value, or NULL where the event type has none. */
    abstract void write(CopyBinary out, EngineEvent e, InstrumentColumns.Columns symbol);

    /**
     * Appends a BALANCE_CHANGED event's element: its sequence, type and time, and its order (NULL for a funding) like
     * every event; NULL elsewhere. What changed is in {@code balance_ledger} ({@code V7__balances.sql}).
     */
    void writeBalance(final CopyBinary out, final EngineEvent e) {
        switch (this) {
            case COMMAND_SEQUENCE, EVENT_TYPE, OCCURRED_AT -> write(out, e, null);
            case ORDER_ID -> {
                if (e.orderId == 0) {
                    out.nullValue();
                } else {
                    out.number(e.orderId);
                }
            }
            default -> out.nullValue();
        }
    }

    /** Every column, in the table's order; shared, never to be changed. */
    static EventColumn[] all() {
        return ALL;
    }
}
