package dev.qaldy.gate.shield;

import dev.qaldy.contract.apps.AppLabel;
import io.github.bucket4j.TimeMeter;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Reads the shield's properties ({@code qaldy.gate.shield.*}, defaults and meanings in
 * {@code META-INF/microprofile-config.properties}) into {@link ShieldRules}, once at start; a bad
 * value stops the gate naming the property. A plan other than free takes the free plan's value for
 * any number it leaves out. Per-plan and per-app keys are found by listing property names, so they
 * must come from system properties or files, not environment variables.
 */
public final class ShieldConfig {

    static final String SHIELD = "qaldy.gate.shield.";
    static final String PLAN = SHIELD + "plan.";
    static final String APP = SHIELD + "app.";
    static final String DEFAULT_BLOCKED_USER_AGENTS = "(?i)sqlmap,(?i)nikto,(?i)masscan,(?i)zgrab,(?i)nuclei,(?i)wpscan";
    static final String DEFAULT_METHODS = "GET,HEAD,POST,PUT,PATCH,DELETE,OPTIONS";
    static final String DEFAULT_SIGN_IN_PATHS = "/api/v1/sessions,/api/v1/people";
    private static final Set<String> PLAN_KEYS = Set.of("per-client-per-minute", "burst", "per-app-per-minute",
            "per-app-burst", "per-app-per-day");
    private static final Set<String> APP_KEYS = Set.of("plan", "blocked-user-agents", "denied-cidrs");

    private final Function<String, Optional<String>> property;
    private final Logger log;

    /** @param property a property's value, empty when not set */
    public ShieldConfig(Function<String, Optional<String>> property, Logger log) {
        this.property = property;
        this.log = log;
    }

    /** @param names every property name the config knows (per-plan and per-app keys are found in it) */
    public ShieldRules rules(Iterable<String> names, Clock clock, TimeMeter meter) {
        long maxBuckets = number("qaldy.gate.shield.max-buckets", 100_000, 1);
        long ipv6Prefix = number("qaldy.gate.shield.ipv6-client-prefix", 64, 1);
        if (ipv6Prefix > 128) {
            throw new IllegalStateException("qaldy.gate.shield.ipv6-client-prefix must be at most 128: " + ipv6Prefix);
        }
        ClientAddress clients = new ClientAddress(ranges("qaldy.gate.trusted-proxies"), (int) ipv6Prefix);
        BotRules bots = new BotRules(
                new HashSet<>(list(value("qaldy.gate.shield.allowed-methods").orElse(DEFAULT_METHODS))),
                (int) number("qaldy.gate.shield.max-target-length", 8192, 1),
                (int) number("qaldy.gate.shield.max-header-count", 100, 1),
                number("qaldy.gate.shield.max-header-bytes", 16_384, 1),
                bool("qaldy.gate.shield.require-user-agent", true),
                patterns("qaldy.gate.shield.blocked-user-agents", DEFAULT_BLOCKED_USER_AGENTS));
        ZoneId zone;
        try {
            zone = ZoneId.of(value("qaldy.gate.shield.day-zone").orElse("UTC").trim());
        } catch (DateTimeException e) {
            throw new IllegalStateException("qaldy.gate.shield.day-zone is not a time zone: " + e.getMessage(), e);
        }
        Duration dayLength = duration("qaldy.gate.shield.day-length", DailyLimits.ONE_DAY);
        if (dayLength.compareTo(Duration.ofSeconds(1)) < 0 || dayLength.compareTo(DailyLimits.ONE_DAY) > 0) {
            throw new IllegalStateException("qaldy.gate.shield.day-length must be 1 s to 1 day: " + dayLength);
        }
        Map<String, Plan> plans = plans(names);
        ShieldSettings settings = new ShieldSettings(apps(names, plans),
                (int) Math.min(Integer.MAX_VALUE, number("qaldy.gate.shield.max-learned-apps", 100_000, 1)));
        Limit api = limit(SHIELD + "api.", 300, null);
        Limit signIn = limit(SHIELD + "sign-in.", 30, 20L);
        Set<String> signInPaths = new TreeSet<>(list(value("qaldy.gate.shield.sign-in-paths").orElse(DEFAULT_SIGN_IN_PATHS)));
        return new ShieldRules(clients, ranges("qaldy.gate.shield.denied-cidrs"), bots, settings, plans, api, signIn,
                signInPaths, new RateLimiter(meter, maxBuckets), new DailyLimits(clock, meter, zone, dayLength, maxBuckets), log);
    }

    Map<String, Plan> plans(Iterable<String> names) {
        Set<String> named = new TreeSet<>();
        for (String name : names) {
            if (name.startsWith(PLAN)) {
                String[] planAndKey = split(name.substring(PLAN.length()), name, PLAN_KEYS);
                if (planAndKey != null) {
                    if (!Plan.NAME.matcher(planAndKey[0]).matches()) {
                        throw new IllegalStateException(name + ": a plan name is lower-case letters, digits and '-'");
                    }
                    named.add(planAndKey[0]);
                }
            }
        }
        Plan free = plan(Plan.FREE, Plan.FREE_DEFAULTS);
        Map<String, Plan> plans = new LinkedHashMap<>();
        plans.put(Plan.FREE, free);
        for (String name : named) {
            plans.putIfAbsent(name, plan(name, free));
        }
        return plans;
    }

    private Plan plan(String name, Plan fallback) {
        String prefix = PLAN + name + ".";
        long perClient = number(prefix + "per-client-per-minute", fallback.perClient().perMinute(), 1);
        long perApp = number(prefix + "per-app-per-minute", fallback.perApp().perMinute(), 1);
        try {
            return new Plan(name,
                    new Limit(perClient, number(prefix + "burst", Limit.defaultBurst(perClient), 1)),
                    new Limit(perApp, number(prefix + "per-app-burst", Limit.defaultBurst(perApp), 1)),
                    number(prefix + "per-app-per-day", fallback.perAppPerDay(), 1));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(prefix + "*: " + e.getMessage(), e);
        }
    }

    Map<String, AppShieldSettings> apps(Iterable<String> names, Map<String, Plan> plans) {
        Set<String> apps = new TreeSet<>();
        for (String name : names) {
            if (name.startsWith(APP)) {
                String[] appAndKey = split(name.substring(APP.length()), name, APP_KEYS);
                if (appAndKey != null) {
                    if (!AppLabel.valid(appAndKey[0])) {
                        throw new IllegalStateException(name + ": not an app name");
                    }
                    apps.add(appAndKey[0]);
                }
            }
        }
        Map<String, AppShieldSettings> settings = new TreeMap<>();
        for (String app : apps) {
            String prefix = APP + app + ".";
            String plan = value(prefix + "plan").map(String::trim).orElse(Plan.FREE);
            if (!plans.containsKey(plan)) {
                log.log(Level.WARNING, "gate: shield: {0}plan names plan {1}, which has no limits in config: "
                        + "the free plan''s limits apply", new Object[] {prefix, plan});
            }
            settings.put(app, new AppShieldSettings(plan, patterns(prefix + "blocked-user-agents", ""), ranges(prefix + "denied-cidrs")));
        }
        return settings;
    }

    /** {@code <name>.<key>} → [name, key]; an unknown key is warned about and gives null. */
    private String[] split(String rest, String property, Set<String> keys) {
        int dot = rest.lastIndexOf('.');
        if (dot <= 0 || !keys.contains(rest.substring(dot + 1))) {
            log.log(Level.WARNING, "gate: shield: ignored unknown property {0} (known keys: {1})",
                    new Object[] {property, new TreeSet<>(keys)});
            return null;
        }
        return new String[] {rest.substring(0, dot), rest.substring(dot + 1)};
    }

    private Limit limit(String prefix, long perMinuteDefault, Long burstDefault) {
        long perMinute = number(prefix + "per-client-per-minute", perMinuteDefault, 1);
        return new Limit(perMinute, number(prefix + "burst", burstDefault == null ? Limit.defaultBurst(perMinute) : burstDefault, 1));
    }

    private Optional<String> value(String name) {
        return property.apply(name).filter(v -> !v.isBlank());
    }

    private long number(String name, long fallback, long min) {
        Optional<String> v = value(name);
        if (v.isEmpty()) {
            return fallback;
        }
        long n;
        try {
            n = Long.parseLong(v.get().trim().replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalStateException(name + " is not a whole number: " + v.get(), e);
        }
        if (n < min) {
            throw new IllegalStateException(name + " must be at least " + min + ": " + n);
        }
        return n;
    }

    private Duration duration(String name, Duration fallback) {
        Optional<String> v = value(name).map(String::trim);
        if (v.isEmpty()) {
            return fallback;
        }
        try {
            return Duration.parse(v.get());
        } catch (DateTimeParseException e) {
            throw new IllegalStateException(name + " is not an ISO-8601 duration (e.g. PT30S, P1D): " + v.get(), e);
        }
    }

    private boolean bool(String name, boolean fallback) {
        Optional<String> v = value(name).map(String::trim);
        if (v.isEmpty()) {
            return fallback;
        }
        if (!v.get().equalsIgnoreCase("true") && !v.get().equalsIgnoreCase("false")) {
            throw new IllegalStateException(name + " must be true or false: " + v.get());
        }
        return Boolean.parseBoolean(v.get());
    }

    private IpRanges ranges(String name) {
        try {
            return IpRanges.parse(value(name).orElse(""));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(name + ": " + e.getMessage(), e);
        }
    }

    private List<java.util.regex.Pattern> patterns(String name, String fallback) {
        try {
            return BotRules.patterns(value(name).orElse(fallback));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(name + ": " + e.getMessage(), e);
        }
    }

    private static List<String> list(String value) {
        List<String> out = new ArrayList<>();
        for (String item : Arrays.asList(value.split(","))) {
            if (!item.isBlank()) {
                out.add(item.trim());
            }
        }
        return out;
    }
}
