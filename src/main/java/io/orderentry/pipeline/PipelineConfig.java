package io.orderentry.pipeline;

import io.orderentry.config.ConfigException;
import io.orderentry.config.ConfigReader;
import io.orderentry.config.SettingNames;
import java.util.Set;

/**
 * The rings' sizes and how their consumers wait. Read from the settings and checked by {@link #from}.
 *
 * @param inputRingSize  slots of the input ring (power of two)
 * @param outputRingSize slots of the output ring (power of two)
 * @param waitStrategy   how ring consumers wait: blocking, sleeping, yielding or busy-spin
 */
public record PipelineConfig(int inputRingSize, int outputRingSize, String waitStrategy) {

    /** The wait strategies a ring may use. */
    private static final Set<String> WAIT_STRATEGIES = Set.of("blocking", "sleeping", "yielding", "busy-spin");

    /** @return the rings' settings: {@code input.ring.size}, {@code output.ring.size}, {@code ring.wait.strategy} */
    public static PipelineConfig from(final ConfigReader settings) {
        final int input = settings.powerOfTwo("input.ring.size", 16, 1 << 26);
        final int output = settings.powerOfTwo("output.ring.size", 16, 1 << 26);
        final String wait = settings.lowerCase("ring.wait.strategy");
        if (!WAIT_STRATEGIES.contains(wait)) {
            throw new ConfigException(SettingNames.envName("ring.wait.strategy")
                    + " must be one of blocking, sleeping, yielding, busy-spin; was '" + wait + "'");
        }
        return new PipelineConfig(input, output, wait);
    }
}
