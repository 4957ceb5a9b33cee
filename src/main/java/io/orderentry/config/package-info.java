/**
 * What every component's settings share: {@link io.orderentry.config.ConfigException} (a setting is missing or
 * invalid; its message names the environment variable and what is expected) and
 * {@link io.orderentry.config.SettingNames} (a setting's environment variable). Used on the starting thread, while
 * settings are read and checked. A leaf: depends on nothing of ours.
 */
package io.orderentry.config;
