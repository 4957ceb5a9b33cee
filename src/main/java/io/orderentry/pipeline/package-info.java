/**
 * The two rings and the stage between them: {@link OrderCommand} is the input ring's slot, {@link EngineEvent} the
 * output ring's, and {@link MatcherStage} feeds each journaled command to the engine's
 * {@link io.orderentry.engine.Matcher} and publishes what it decides into the output ring, as its only producer. Also
 * what every stage shares: {@link BatchStage} (apply per event, endOfBatch per batch), {@link Sequential} (stages that
 * run one after another on one thread), the stage wait strategy, thread names, ring shutdown, and the rings' settings
 * ({@link PipelineConfig}, read on the starting thread).
 * <p>{@link MatcherStage} runs on the matcher thread (oe-matcher), its replay on the starting thread during recovery;
 * in cluster mode on the clustered service thread, in the snapshot replica on oe-snapshot. The other classes run on
 * the thread of the stage they wrap.
 * <p>Depends on engine and config (its settings) only among our packages, and on the LMAX Disruptor.
 */
package io.orderentry.pipeline;
