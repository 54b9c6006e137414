package dev.qaldy.control.schedules.control;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.qaldy.control.schedules.entity.CronRule;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Parsed cron rules by (expression, zone), so a scheduler tick over thousands of schedules parses
 * each distinct rule once, not once per schedule and tick (issue 9: 10,000 schedules catching up).
 * A rule is a pure value of its text, so a remembered one is always right. Bounded to
 * {@link #MAX_ENTRIES} rules, least recently used out first.
 */
@ApplicationScoped
public class CronRules {

    /** Most distinct (expression, zone) pairs remembered. */
    static final int MAX_ENTRIES = 10_000;

    private final Cache<Key, CronRule> rules = Caffeine.newBuilder().maximumSize(MAX_ENTRIES).build();

    private record Key(String expression, String zone) {
    }

    /**
     * The rule of a stored schedule (a 6-field expression was accepted when it was added, so it is
     * read with its seconds field, as {@code Schedule.rule()} does).
     *
     * @throws dev.qaldy.control.platform.control.InvalidInput when the stored text is not a rule (never remembered)
     */
    public CronRule of(String expression, String zone) {
        return rules.get(new Key(expression, zone), key -> CronRule.of(key.expression(), key.zone(), true));
    }

    /** How many rules are remembered now (estimate, for tests). */
    long size() {
        rules.cleanUp();
        return rules.estimatedSize();
    }
}
