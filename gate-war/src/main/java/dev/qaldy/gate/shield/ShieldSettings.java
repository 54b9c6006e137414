package dev.qaldy.gate.shield;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Where the shield gets each app's {@link AppShieldSettings}: the app's entry in config
 * ({@code qaldy.gate.shield.app.<app>.*}), joined by what its owner set through the control plane
 * as the gate last learned it ({@link #learn}; seed: per-app settings the gate last fetched stay in
 * force while the API is down), else {@link AppShieldSettings#DEFAULT}. Read per request, so it is
 * one map lookup: the joined settings are built when they are learned.
 *
 * <p>When the gate's copy on disk was damaged ({@link #unknown()}), what the owners set is unknown
 * until the gate has read the control plane's whole feed again ({@link #known()}): meanwhile the
 * shield refuses app traffic with 503 (fail closed: an owner may have blocked someone).
 *
 * <p>Bounded: at most {@code maxLearned} apps with settings of their owner; past that, new ones are
 * refused (config's settings keep applying to them) and {@link #learn} says so.
 */
public final class ShieldSettings {

    private final Map<String, AppShieldSettings> configured;
    private final ConcurrentMap<String, AppShieldSettings> joined = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, OwnerSettings> learned = new ConcurrentHashMap<>();
    private final int maxLearned;
    private volatile boolean known = true;

    /** @param configured per-app settings from config, by app name */
    public ShieldSettings(Map<String, AppShieldSettings> configured) {
        this(configured, 100_000);
    }

    /**
     * @param configured per-app settings from config, by app name
     * @param maxLearned most apps whose owner's settings are kept
     */
    public ShieldSettings(Map<String, AppShieldSettings> configured, int maxLearned) {
        this.configured = Collections.unmodifiableMap(new TreeMap<>(configured));
        this.maxLearned = maxLearned;
    }

    /** The settings in force for {@code app}. */
    public AppShieldSettings forApp(String app) {
        AppShieldSettings own = joined.get(app);
        if (own != null) {
            return own;
        }
        return configured.getOrDefault(app, AppShieldSettings.DEFAULT);
    }

    /**
     * Takes what an app's owner set, unless the gate holds a later change for it; settings that set
     * nothing make the gate forget the app's. False only when the bound is reached (not learned).
     */
    public synchronized boolean learn(OwnerSettings owner) {
        OwnerSettings held = learned.get(owner.app());
        if (held != null && held.sequence() >= owner.sequence()) {
            return true;
        }
        if (owner.none()) {
            learned.remove(owner.app());
            joined.remove(owner.app());
            return true;
        }
        if (held == null && learned.size() >= maxLearned) {
            return false;
        }
        learned.put(owner.app(), owner);
        joined.put(owner.app(), configured.getOrDefault(owner.app(), AppShieldSettings.DEFAULT)
                .with(owner));
        return true;
    }

    /** False from {@link #unknown()} until {@link #known()}: the owners' settings cannot be known. */
    public boolean isKnown() {
        return known;
    }

    /** What the owners set cannot be known (the copy on disk was damaged): forgets it, refuses app traffic. */
    public synchronized void unknown() {
        learned.clear();
        joined.clear();
        known = false;
    }

    /** The whole feed was read again: what the owners set is known. */
    public void known() {
        known = true;
    }

    /** The apps with settings of their own in config. */
    public Map<String, AppShieldSettings> configured() {
        return configured;
    }

    /** How many apps' owner settings the gate holds. */
    public int learnedCount() {
        return learned.size();
    }

    /** What the gate learned from the control plane, by app (a copy). */
    public Map<String, OwnerSettings> learned() {
        return new TreeMap<>(learned);
    }
}
