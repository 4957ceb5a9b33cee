package io.orderentry.account;

/**
 * What {@code POST /api/v1/cancel-all-after} arms: the account's dead man's switch. In a single node it lives in the
 * process ({@link DeadMansSwitch}); in a cluster it lives in the replicated log, one per account for the whole cluster
 * ({@code io.orderentry.cluster.ClusterSwitchClient}), and the answer comes once the log has it.
 */
public interface CancelAllAfter {

    /** The outcome of one {@link #arm}; called exactly once, on any thread. */
    interface Outcome {
        /** @param triggerAtMicros when the switch fires (epoch microseconds), or 0 when it was disarmed */
        void armed(long triggerAtMicros);

        /**
         * The switch may or may not have changed (arming is idempotent, so the same request may be sent again).
         *
         * @param code    the error code of the answer ({@code JOURNAL_UNAVAILABLE}, {@code OVERLOADED})
         * @param message what happened
         */
        void failed(String code, String message);
    }

    /**
     * Arms, re-arms (a refresh) or, with 0, disarms the account's switch.
     *
     * @param timeoutSeconds 0 to {@value DeadMansSwitch#MAX_TIMEOUT_SECONDS}
     * @param keyId          the API key that armed it (the audit trail's record of the cancel-all names it), or null
     */
    void arm(String accountId, int timeoutSeconds, String keyId, Outcome outcome);

    /** @return how many accounts have an armed switch */
    int armedCount();

    /** @return how many switches have fired since the start */
    long firedCount();
}
