package dev.qaldy.gate.shield;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where the shield gets each app's {@link AppShieldSettings}: the app's entry in config
 * ({@code qaldy.gate.shield.app.<app>.*}) or else {@link AppShieldSettings#DEFAULT}. The control
 * plane does not serve per-app settings yet; when it does, the settings the gate last fetched
 * join here (and stay in force while the API is down), and the shield itself does not change.
 * Read per request, so it must stay a map lookup.
 */
public final class ShieldSettings {

    private final Map<String, AppShieldSettings> configured;

    /** @param configured per-app settings from config, by app name */
    public ShieldSettings(Map<String, AppShieldSettings> configured) {
        this.configured = Collections.unmodifiableMap(new TreeMap<>(configured));
    }

    /** The settings in force for {@code app}. */
    public AppShieldSettings forApp(String app) {
        return configured.getOrDefault(app, AppShieldSettings.DEFAULT);
    }

    /** The apps with settings of their own in config. */
    public Map<String, AppShieldSettings> configured() {
        return configured;
    }
}
