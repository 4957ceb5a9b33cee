package io.orderentry.query;

import java.lang.invoke.VarHandle;

/**
 * One look-up by clientOrderId ({@link OrderStateView#orderIdOf}): checks each candidate slot the
 * {@link ClientIdIndex} names against the account and clientOrderId asked for, under the slot's version, and keeps
 * the largest order id that matches.
 *
 * <p>Threads: the reader's own; one instance per look-up.
 */
final class ClientIdMatch implements ClientIdIndex.SlotVisitor {

    private static final int SHIFT = SlotVersions.SHIFT;
    private static final int MASK = SlotVersions.MASK;

    private final OrderStateView view;
    private final String accountId;
    private final String clientOrderId;
    /** The largest matching order id so far, 0 for none. */
    long orderId;

    ClientIdMatch(final OrderStateView view, final String accountId, final String clientOrderId) {
        this.view = view;
        this.accountId = accountId;
        this.clientOrderId = clientOrderId;
    }

    @Override
    public void visit(final int slot) {
        final int c = slot >>> SHIFT;
        final int i = slot & MASK;
        final int[] version = view.versions[c];
        final long[] ids = view.ids[c];
        final String[] accounts = view.accounts[c];
        if (version == null || ids == null || accounts == null) {
            return;     // a chunk this reader cannot see yet: the index version check makes it retry
        }
        while (true) {
            final int before = (int) SlotVersions.INTS.getAcquire(version, i);
            if ((before & 1) != 0) {
                Thread.onSpinWait();
                continue;
            }
            final long id = ids[i];
            final boolean same = id != 0 && accountId.equals(accounts[i])
                    && view.clientOrderIds.matches(slot, clientOrderId);
            VarHandle.loadLoadFence();
            if ((int) SlotVersions.INTS.getOpaque(version, i) != before) {
                continue;
            }
            if (same && id > orderId) {
                orderId = id;
            }
            return;
        }
    }
}
