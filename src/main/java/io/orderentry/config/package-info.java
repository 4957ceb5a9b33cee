/**
 * What every component's settings share: {@link io.orderentry.config.ConfigReader} (the merged settings, read by key
 * with type and bounds checked; each component's {@code XConfig.from(reader)} reads its own record with it),
 * {@link io.orderentry.config.ConfigException} (a setting is missing or invalid; its message names the environment
 * variable and what is expected) and {@link io.orderentry.config.SettingNames} (a setting's environment variable).
 * Used on the starting thread, while settings are read and checked. A leaf: depends on nothing of ours.
 */
package io.orderentry.config;
