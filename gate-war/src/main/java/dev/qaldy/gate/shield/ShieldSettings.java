package dev.qaldy.gate.shield;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Each app's {@link AppShieldSettings}: config ({@code qaldy.gate.shield.app.<app>.*}) joined with
 * what its owner set through the control plane as last learned ({@link #learn}; seed: the last
 * fetched settings stay in force while the API is down). Joined when learned, so a request costs one
 * lookup. After a damaged copy on disk ({@link #unknown()}) app traffic gets 503 until the whole feed
 * is read again (fail closed: an owner may have blocked someone). At most {@code maxLearned} apps.
 */
public final class ShieldSettings {

    private final Map<String, AppShieldSettings> configured;
    private final ConcurrentMap<String, AppShieldSettings> joined = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, OwnerSettings> learned = new ConcurrentHashMap<>();
    private final int maxLearned;
    private volatile boolean known = true;

    public ShieldSettings(Map<String, AppShieldSettings> configured) {
        this(configured, 100_000);
    }

    public ShieldSettings(Map<String, AppShieldSettings> configured, int maxLearned) {
        this.configured = Collections.unmodifiableMap(new TreeMap<>(configured));
        this.maxLearned = maxLearned;
    }

    public AppShieldSettings forApp(String app) {
        AppShieldSettings own = joined.get(app);
        if (own != null) {
            return own;
        }
        return configured.getOrDefault(app, AppShieldSettings.DEFAULT);
    }

    /** Unless a later change is held; settings that set nothing forget the app's. False only at the bound (not learned). */
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

    public boolean isKnown() {
        return known;
    }

    /** The copy on disk was damaged: forgets the owners' settings and refuses app traffic until {@link #known()}. */
    public synchronized void unknown() {
        learned.clear();
        joined.clear();
        known = false;
    }

    /** The whole feed was read again. */
    public void known() {
        known = true;
    }

    public Map<String, AppShieldSettings> configured() {
        return configured;
    }

    public int learnedCount() {
        return learned.size();
    }

    /** A copy. */
    public Map<String, OwnerSettings> learned() {
        return new TreeMap<>(learned);
    }
}
