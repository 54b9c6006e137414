package dev.qaldy.gate.shield;

import dev.qaldy.gate.platform.Page;
import java.net.InetAddress;
import java.net.URI;
import java.time.format.DateTimeFormatter;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The shield's checks for one request, in order, all local (they work with the API stopped):
 * <ol>
 * <li>an app whose owner's settings are unknown → 503 {@code settings-unknown};
 * <li>a client address in a denied range, the cell's or the app's → 403 {@code denied-ip};
 * <li>{@link BotRules}: request line and headers → 405, 414 or 431; user agent → 403 ({@code bot-rule});
 * <li>{@link RateLimiter}: the (client, app) bucket before the app's, so one client never drains the
 * app's; for the API the client's bucket, then its sign-in bucket → 429 {@code rate-limit};
 * <li>the app's {@link DailyLimits} → 429 {@code daily-limit}, counting to the app's next day.
 * </ol>
 * A refused request never reaches a later step, so it is not counted against the daily limit.
 */
public final class ShieldRules {

    /** IETF httpapi rate-limit header names (drafts up to -06, widely implemented). */
    public static final String LIMIT = "RateLimit-Limit";
    public static final String REMAINING = "RateLimit-Remaining";
    public static final String RESET = "RateLimit-Reset";

    private static final DateTimeFormatter DAY_START = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm", Locale.ROOT);
    private static final DateTimeFormatter DAY_START_SECONDS = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss", Locale.ROOT);

    private final ClientAddress clients;
    private final IpRanges deniedRanges;
    private final BotRules bots;
    private final ShieldSettings settings;
    private final Map<String, Plan> plans;
    private final Limit apiLimit;
    private final Limit signInLimit;
    private final Set<String> signInPaths;
    private final RateLimiter buckets;
    private final DailyLimits days;
    private final Logger log;

    /**
     * @param plans       must hold {@link Plan#FREE}, which stands in for any plan not listed
     * @param signInPaths POSTs to these (decoded, no trailing slash) also count as sign-ins
     */
    public ShieldRules(ClientAddress clients, IpRanges deniedRanges, BotRules bots, ShieldSettings settings,
            Map<String, Plan> plans, Limit apiLimit, Limit signInLimit, Set<String> signInPaths,
            RateLimiter buckets, DailyLimits days, Logger log) {
        if (!plans.containsKey(Plan.FREE)) {
            throw new IllegalArgumentException("the plans must include " + Plan.FREE);
        }
        this.clients = clients;
        this.deniedRanges = deniedRanges;
        this.bots = bots;
        this.settings = settings;
        this.plans = Collections.unmodifiableMap(new LinkedHashMap<>(plans));
        this.apiLimit = apiLimit;
        this.signInLimit = signInLimit;
        this.signInPaths = Set.copyOf(signInPaths);
        this.buckets = buckets;
        this.days = days;
        this.log = log;
    }

    /** Counts the request when it passes. */
    public ShieldVerdict check(ShieldTarget target, ShieldRequest req) {
        String app = target instanceof ShieldTarget.App a ? a.name() : null;
        if (app != null && !settings.isKnown()) {
            return blocked(ShieldReason.SETTINGS_UNKNOWN, Page.unavailable());
        }
        AppShieldSettings own = app == null ? AppShieldSettings.DEFAULT : settings.forApp(app);
        Optional<InetAddress> client = clients.resolve(req.peer(), req.forwardedFor());

        if (client.isPresent() && (deniedRanges.contains(client.get()) || own.deniedRanges().contains(client.get()))) {
            return blocked(ShieldReason.DENIED_IP, Page.blockedByShield(app, "your network address is on the shield's deny list"));
        }
        Optional<BotRules.Broken> broken = bots.requestLine(req).or(() -> bots.userAgent(req.userAgent(), own.blockedUserAgents()));
        if (broken.isPresent()) {
            return botRule(broken.get(), app);
        }

        String clientKey = clients.key(client);
        if (app != null) {
            Plan plan = planOf(own);
            RateLimiter.Outcome mine = buckets.take(RateLimiter.Key.client(app, clientKey), plan.perClient());
            if (!mine.allowed()) {
                return rateLimited(app, mine);
            }
            RateLimiter.Outcome everyone = buckets.take(RateLimiter.Key.app(app), plan.perApp());
            if (!everyone.allowed()) {
                return rateLimited(app, everyone);
            }
            DailyLimits.Outcome today = days.count(app, plan.perAppPerDay(), own.dayZone());
            if (!today.allowed()) {
                return dailyLimit(app, today);
            }
        } else {
            RateLimiter.Outcome api = buckets.take(RateLimiter.Key.api(clientKey), apiLimit);
            if (!api.allowed()) {
                return rateLimited(null, api);
            }
            if (signIn(req)) {
                RateLimiter.Outcome signIn = buckets.take(RateLimiter.Key.signIn(clientKey), signInLimit);
                if (!signIn.allowed()) {
                    return rateLimited(null, signIn);
                }
            }
        }
        return new ShieldVerdict.Pass(client.map(InetAddress::getHostAddress).orElse(req.peer()));
    }

    /** Before its owner's lower limits; free for a plan the gate does not know. */
    public Plan planOf(String app) {
        return plans.getOrDefault(settings.forApp(app).plan(), plans.get(Plan.FREE));
    }

    /** The plan, lowered where the owner set lower limits. */
    Plan planOf(AppShieldSettings own) {
        return own.limits().tighten(plans.getOrDefault(own.plan(), plans.get(Plan.FREE)));
    }

    boolean signIn(ShieldRequest req) {
        if (!"POST".equals(req.method()) || req.path() == null) {
            return false;
        }
        String path;
        try {
            path = URI.create(req.path()).getPath();
        } catch (IllegalArgumentException e) {
            path = req.path();
        }
        if (path == null) {
            return false;
        }
        while (path.length() > 1 && path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        return signInPaths.contains(path);
    }

    private ShieldVerdict botRule(BotRules.Broken broken, String app) {
        return switch (broken) {
            case METHOD -> blocked(ShieldReason.BOT_RULE, Page.methodNotAllowedByShield(),
                    Map.of("Allow", String.join(", ", bots.allowedMethods().stream().sorted().toList())));
            case TARGET_TOO_LONG -> blocked(ShieldReason.BOT_RULE, Page.uriTooLong());
            case HEADERS_TOO_LARGE -> blocked(ShieldReason.BOT_RULE, Page.headersTooLarge());
            case NO_USER_AGENT -> blocked(ShieldReason.BOT_RULE, Page.blockedByShield(app, "it has no User-Agent header"));
            case BLOCKED_USER_AGENT -> blocked(ShieldReason.BOT_RULE,
                    Page.blockedByShield(app, "its User-Agent is on the shield's block list"));
        };
    }

    private static ShieldVerdict rateLimited(String app, RateLimiter.Outcome outcome) {
        long retry = Math.max(1, seconds(outcome.nanosToRetry()));
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Retry-After", Long.toString(retry));
        headers.put(LIMIT, Long.toString(outcome.limit()));
        headers.put(REMAINING, Long.toString(outcome.remaining()));
        headers.put(RESET, Long.toString(Math.max(retry, seconds(outcome.nanosToFull()))));
        return blocked(ShieldReason.RATE_LIMIT, Page.tooManyRequests(app, retry), headers);
    }

    private ShieldVerdict dailyLimit(String app, DailyLimits.Outcome today) {
        long retry = Math.max(1, seconds(today.nanosToNextDay()));
        if (today.firstRefusal()) {
            log.log(Level.INFO, "gate: shield: {0} reached its daily limit of {1} requests; it takes requests again from {2}",
                    new Object[] {app, Long.toString(today.limit()), opensAgain(today)});
        }
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Retry-After", Long.toString(retry));
        headers.put(LIMIT, Long.toString(today.limit()));
        headers.put(REMAINING, "0");
        headers.put(RESET, Long.toString(retry));
        return blocked(ShieldReason.DAILY_LIMIT, Page.dailyLimitReached(app, opensAgain(today)), headers);
    }

    /** E.g. {@code 2025-06-02 00:00 UTC}; with seconds when a shortened day starts within a minute. */
    private static String opensAgain(DailyLimits.Outcome today) {
        DateTimeFormatter format = today.nextDay().getSecond() == 0 ? DAY_START : DAY_START_SECONDS;
        return format.format(today.nextDay()) + " " + today.nextDay().getZone().getId();
    }

    private static ShieldVerdict blocked(ShieldReason reason, Page page) {
        return blocked(reason, page, Map.of());
    }

    private static ShieldVerdict blocked(ShieldReason reason, Page page, Map<String, String> extra) {
        Map<String, String> headers = new LinkedHashMap<>(extra);
        headers.put(ShieldReason.HEADER, reason.header());
        return new ShieldVerdict.Block(reason, page, headers);
    }

    /** Rounded up. */
    static long seconds(long nanos) {
        return nanos <= 0 ? 0 : (nanos - 1) / TimeUnit.SECONDS.toNanos(1) + 1;
    }

    public RateLimiter buckets() {
        return buckets;
    }

    public DailyLimits days() {
        return days;
    }

    public ShieldSettings settings() {
        return settings;
    }

    public Map<String, Plan> plans() {
        return plans;
    }

    public String summary() {
        return "plans " + plans.values() + "; API " + apiLimit + " per client, sign-in " + signInLimit + " per client on POST "
                + signInPaths + "; days in " + days.zone() + " unless an app's owner chose a zone (" + days.dayRule() + ")" + "; user agents blocked " + bots.blockedUserAgents()
                + "; denied ranges " + deniedRanges + "; apps with their own settings " + settings.configured().keySet();
    }
}
