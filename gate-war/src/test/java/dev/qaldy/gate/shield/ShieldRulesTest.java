package dev.qaldy.gate.shield;

import static dev.qaldy.gate.shield.ShieldConfigTest.rules;
import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.gate.shield.ShieldVerdict.Block;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ShieldRulesTest {

    private static final String BROWSER = "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0";
    private static final ShieldTarget GUESTBOOK = new ShieldTarget.App("guestbook");
    private static final ShieldTarget LIMITED = new ShieldTarget.App("limited");
    private static final ShieldTarget API = new ShieldTarget.Api();

    private final FakeTime time = new FakeTime(Instant.parse("2025-06-01T21:00:00Z"));
    /** "limited" is on a tiny plan: 60 a minute and a burst of 3 per client, 6 per app, 8 a day. */
    private final ShieldRules rules = rules(time,
            "qaldy.gate.shield.plan.tiny.per-client-per-minute=60",
            "qaldy.gate.shield.plan.tiny.burst=3",
            "qaldy.gate.shield.plan.tiny.per-app-per-minute=60",
            "qaldy.gate.shield.plan.tiny.per-app-burst=6",
            "qaldy.gate.shield.plan.tiny.per-app-per-day=8",
            "qaldy.gate.shield.app.limited.plan=tiny",
            "qaldy.gate.shield.app.limited.blocked-user-agents=(?i)^curl/",
            "qaldy.gate.shield.app.limited.denied-cidrs=198.51.100.0/24",
            "qaldy.gate.shield.denied-cidrs=192.0.2.0/24, 2001:db8:bad::/48",
            "qaldy.gate.shield.api.per-client-per-minute=60",
            "qaldy.gate.shield.api.burst=5",
            "qaldy.gate.shield.sign-in.per-client-per-minute=6",
            "qaldy.gate.shield.sign-in.burst=2");

    private static ShieldRequest get(String peer, String userAgent, String... forwardedFor) {
        return new ShieldRequest("GET", "/", 1, 3, 100, userAgent, peer, List.of(forwardedFor));
    }

    private static ShieldRequest post(String path, String peer) {
        return new ShieldRequest("POST", path, path.length(), 3, 100, BROWSER, peer, List.of());
    }

    private static Block blocked(ShieldVerdict verdict) {
        assertThat(verdict).isInstanceOf(Block.class);
        return (Block) verdict;
    }

    @Test
    void anOrdinaryRequestPassesWithItsClientAddress() {
        assertThat(rules.check(GUESTBOOK, get("203.0.113.9", BROWSER, "6.6.6.6")))
                .isEqualTo(new ShieldVerdict.Pass("203.0.113.9"));
        assertThat(rules.check(API, get("::1", BROWSER))).isEqualTo(new ShieldVerdict.Pass("0:0:0:0:0:0:0:1"));
    }

    @ParameterizedTest(name = "[{index}] {0} from {1} → {2}")
    @CsvSource({
        "guestbook, 192.0.2.77,     403, denied-ip",
        "guestbook, 2001:db8:bad::1, 403, denied-ip",
        "limited,   198.51.100.5,   403, denied-ip",
        "guestbook, 198.51.100.5,   0,   ''",
        "api,       192.0.2.77,     403, denied-ip",
        "api,       198.51.100.5,   0,   ''",
    })
    void deniedRangesAreTheCellsAndTheAppsOwn(String target, String peer, int status, String reason) {
        ShieldTarget t = target.equals("api") ? API : new ShieldTarget.App(target);
        ShieldVerdict verdict = rules.check(t, get(peer, BROWSER));
        if (status == 0) {
            assertThat(verdict).isInstanceOf(ShieldVerdict.Pass.class);
        } else {
            Block block = blocked(verdict);
            assertThat(block.page().status()).isEqualTo(status);
            assertThat(block.headers()).containsEntry("X-Qaldy-Shield", reason);
            assertThat(block.page().title()).isEqualTo(t == API ? "Blocked by Qaldy's shield" : "Blocked by the app's shield");
        }
    }

    @ParameterizedTest(name = "[{index}] {0} with User-Agent ''{1}'' → {2}")
    @CsvSource(nullValues = "NULL", value = {
        "guestbook, 'sqlmap/1.8',  403",
        "guestbook, NULL,          403",
        "guestbook, '',            403",
        "guestbook, 'curl/8.5',    0",
        "limited,   'curl/8.5',    403",
        "api,       'Nikto/2.5',   403",
        "api,       NULL,          403",
    })
    void userAgentRules(String target, String userAgent, int status) {
        ShieldTarget t = target.equals("api") ? API : new ShieldTarget.App(target);
        ShieldVerdict verdict = rules.check(t, get("203.0.113.9", userAgent));
        if (status == 0) {
            assertThat(verdict).isInstanceOf(ShieldVerdict.Pass.class);
        } else {
            Block block = blocked(verdict);
            assertThat(block.page().status()).isEqualTo(status);
            assertThat(block.reason()).isEqualTo(ShieldReason.BOT_RULE);
            assertThat(block.headers()).containsEntry("X-Qaldy-Shield", "bot-rule").doesNotContainKey("Retry-After");
        }
    }

    @ParameterizedTest(name = "[{index}] {0} {1} chars, {2} headers of {3} → {4}")
    @CsvSource({
        "TRACE,    1,     3,   100,    405",
        "PROPFIND, 1,     3,   100,    405",
        "GET,      8193,  3,   100,    414",
        "GET,      1,     101, 100,    431",
        "GET,      1,     3,   16385,  431",
    })
    void requestLineRules(String method, int target, int headers, long bytes, int status) {
        Block block = blocked(rules.check(GUESTBOOK, new ShieldRequest(method, "/", target, headers, bytes, BROWSER, "203.0.113.9", List.of())));
        assertThat(block.page().status()).isEqualTo(status);
        assertThat(block.headers()).containsEntry("X-Qaldy-Shield", "bot-rule");
        if (status == 405) {
            assertThat(block.headers()).containsEntry("Allow", "DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT");
        }
    }

    @Test
    void refusalsComeInOrderAndCostNoTokens() {
        assertThat(blocked(rules.check(LIMITED, get("198.51.100.5", "sqlmap"))).reason()).as("denied first").isEqualTo(ShieldReason.DENIED_IP);
        for (int i = 0; i < 20; i++) {
            assertThat(blocked(rules.check(LIMITED, get("203.0.113.9", "sqlmap"))).reason()).isEqualTo(ShieldReason.BOT_RULE);
        }
        for (int i = 0; i < 3; i++) {
            assertThat(rules.check(LIMITED, get("203.0.113.9", BROWSER))).as("the bot-rule refusals took no tokens")
                    .isInstanceOf(ShieldVerdict.Pass.class);
        }
    }

    @Test
    void overThePerClientLimitIs429WithRetryAfterAndRateLimitHeaders() {
        for (int i = 0; i < 3; i++) {
            assertThat(rules.check(LIMITED, get("203.0.113.9", BROWSER))).isInstanceOf(ShieldVerdict.Pass.class);
        }
        Block block = blocked(rules.check(LIMITED, get("203.0.113.9", BROWSER)));
        assertThat(block.page().status()).isEqualTo(429);
        assertThat(block.page().type()).isEqualTo("rate-limited");
        assertThat(block.page().sentence()).contains("limited").contains("1 second");
        assertThat(block.headers()).containsEntry("X-Qaldy-Shield", "rate-limit").containsEntry("Retry-After", "1")
                .containsEntry("RateLimit-Limit", "3").containsEntry("RateLimit-Remaining", "0").containsEntry("RateLimit-Reset", "3");

        time.pass(Duration.ofMillis(400));
        assertThat(blocked(rules.check(LIMITED, get("203.0.113.9", BROWSER))).headers())
                .as("rounded up").containsEntry("Retry-After", "1").containsEntry("RateLimit-Reset", "3");
        time.pass(Duration.ofMillis(600));
        assertThat(rules.check(LIMITED, get("203.0.113.9", BROWSER))).isInstanceOf(ShieldVerdict.Pass.class);
    }

    @Test
    void aSpoofedForwardedForFromAnUntrustedPeerDoesNotDodgeThePerClientLimit() {
        for (int i = 0; i < 3; i++) {
            assertThat(rules.check(LIMITED, get("127.0.0.1", BROWSER, "10.0.0." + i))).isInstanceOf(ShieldVerdict.Pass.class);
        }
        assertThat(blocked(rules.check(LIMITED, get("127.0.0.1", BROWSER, "10.0.0.99"))).reason()).isEqualTo(ShieldReason.RATE_LIMIT);
        assertThat(blocked(rules.check(LIMITED, get("127.0.0.1", BROWSER))).reason()).isEqualTo(ShieldReason.RATE_LIMIT);
        assertThat(rules.check(LIMITED, get("127.0.0.2", BROWSER))).as("another peer has its own bucket")
                .isInstanceOf(ShieldVerdict.Pass.class);
    }

    @Test
    void behindATrustedProxyEachForwardedClientHasItsOwnBucket() {
        ShieldRules proxied = rules(time, "qaldy.gate.trusted-proxies=127.0.0.1/32",
                "qaldy.gate.shield.plan.free.per-client-per-minute=60", "qaldy.gate.shield.plan.free.burst=2");
        for (String client : List.of("198.51.100.1", "198.51.100.2")) {
            assertThat(proxied.check(GUESTBOOK, get("127.0.0.1", BROWSER, client))).isEqualTo(new ShieldVerdict.Pass(client));
            assertThat(proxied.check(GUESTBOOK, get("127.0.0.1", BROWSER, "6.6.6.6, " + client))).isInstanceOf(ShieldVerdict.Pass.class);
            assertThat(blocked(proxied.check(GUESTBOOK, get("127.0.0.1", BROWSER, "7.7.7.7, " + client))).reason())
                    .as("what the client wrote left of the proxy's entry does not count").isEqualTo(ShieldReason.RATE_LIMIT);
        }
    }

    @Test
    void ipv6ClientsShareTheirSlash64() {
        for (int i = 1; i <= 3; i++) {
            assertThat(rules.check(LIMITED, get("2001:db8:1:2::" + i, BROWSER))).isInstanceOf(ShieldVerdict.Pass.class);
        }
        assertThat(blocked(rules.check(LIMITED, get("2001:db8:1:2::ffff", BROWSER))).reason()).isEqualTo(ShieldReason.RATE_LIMIT);
        assertThat(rules.check(LIMITED, get("2001:db8:1:3::1", BROWSER))).isInstanceOf(ShieldVerdict.Pass.class);
    }

    @Test
    void thePerAppLimitHoldsForEveryoneTogetherAndAClientOverItsOwnNeverDrainsIt() {
        for (int i = 0; i < 10; i++) {
            rules.check(LIMITED, get("203.0.113.1", BROWSER)); // 3 pass, 7 refused by the client's own bucket
        }
        int passed = 0;
        Block last = null;
        for (int client = 2; client <= 9; client++) {
            ShieldVerdict verdict = rules.check(LIMITED, get("203.0.113." + client, BROWSER));
            if (verdict instanceof Block block) {
                last = block;
            } else {
                passed++;
            }
        }
        assertThat(passed).as("the app's burst of 6, 3 of them used").isEqualTo(3);
        assertThat(last.reason()).isEqualTo(ShieldReason.RATE_LIMIT);
        assertThat(last.headers()).containsEntry("RateLimit-Limit", "6").containsEntry("Retry-After", "1");
    }

    @Test
    void overTheDailyLimitIs429UntilTheNextDayAndOnlyPassedRequestsCount() {
        int passed = 0;
        for (int i = 0; i < 40; i++) {
            if (rules.check(LIMITED, get("203.0.113." + (i % 20 + 1), BROWSER)) instanceof ShieldVerdict.Pass) {
                passed++;
            }
            time.pass(Duration.ofSeconds(1));
        }
        assertThat(passed).isEqualTo(8);
        Block block = blocked(rules.check(LIMITED, get("203.0.113.50", BROWSER)));
        assertThat(block.reason()).isEqualTo(ShieldReason.DAILY_LIMIT);
        assertThat(block.page().status()).isEqualTo(429);
        assertThat(block.page().sentence()).contains("2025-06-02 00:00 UTC");
        long toMidnight = Duration.between(time.instant(), Instant.parse("2025-06-02T00:00:00Z")).toSeconds();
        assertThat(block.headers()).containsEntry("X-Qaldy-Shield", "daily-limit")
                .containsEntry("Retry-After", Long.toString(toMidnight)).containsEntry("RateLimit-Reset", Long.toString(toMidnight))
                .containsEntry("RateLimit-Limit", "8").containsEntry("RateLimit-Remaining", "0");
        assertThat(rules.check(GUESTBOOK, get("203.0.113.50", BROWSER))).as("other apps are not affected")
                .isInstanceOf(ShieldVerdict.Pass.class);

        time.pass(Duration.ofSeconds(toMidnight));
        assertThat(rules.check(LIMITED, get("203.0.113.50", BROWSER))).as("a new day").isInstanceOf(ShieldVerdict.Pass.class);
    }

    @ParameterizedTest(name = "[{index}] {0} {1}: sign-in bucket {2}")
    @CsvSource({
        "POST, /api/v1/sessions,    true",
        "POST, /api/v1/sessions/,   true",
        "POST, /api/v1/%73essions,  true",
        "POST, /api/v1/people,      true",
        "GET,  /api/v1/sessions,    false",
        "POST, /api/v1/apps,        false",
        "POST, /api/v1/sessions/current, false",
    })
    void signInsHaveTheirOwnStricterBucketOnTopOfTheApis(String method, String path, boolean signIn) {
        ShieldRequest req = new ShieldRequest(method, path, path.length(), 3, 100, BROWSER, "203.0.113.9", List.of());
        assertThat(rules.signIn(req)).isEqualTo(signIn);
        int passed = 0;
        for (int i = 0; i < 10; i++) {
            if (rules.check(API, req) instanceof ShieldVerdict.Pass) {
                passed++;
            }
        }
        assertThat(passed).isEqualTo(signIn ? 2 : 5);
    }

    @Test
    void apiAndAppsAreCountedApart() {
        for (int i = 0; i < 5; i++) {
            assertThat(rules.check(API, post("/api/v1/apps", "203.0.113.9"))).isInstanceOf(ShieldVerdict.Pass.class);
        }
        Block block = blocked(rules.check(API, post("/api/v1/apps", "203.0.113.9")));
        assertThat(block.page().sentence()).contains("Qaldy's API");
        assertThat(block.headers()).containsEntry("RateLimit-Limit", "5");
        assertThat(rules.check(GUESTBOOK, get("203.0.113.9", BROWSER))).isInstanceOf(ShieldVerdict.Pass.class);
    }

    @Test
    void secondsRoundUp() {
        assertThat(ShieldRules.seconds(0)).isZero();
        assertThat(ShieldRules.seconds(1)).isEqualTo(1);
        assertThat(ShieldRules.seconds(1_000_000_000)).isEqualTo(1);
        assertThat(ShieldRules.seconds(1_000_000_001)).isEqualTo(2);
    }

    @Test
    void anOwnersSettingsLearnedFromTheControlPlaneTightenTheAppAndAreAddedToConfigs() {
        OwnerSettings owner = OwnerSettings.read(jakarta.json.Json.createReader(new java.io.StringReader(
                "{\"app\":\"limited\",\"sequence\":3,\"perAppPerDay\":2,\"perClientPerMinute\":100000,"
                        + "\"blockedUserAgents\":[\"(?i)wget\"],\"deniedCidrs\":[\"203.0.113.0/24\"]}")).readObject(),
                problem -> { }).orElseThrow();
        assertThat(rules.settings().learn(owner)).isTrue();

        assertThat(blocked(rules.check(LIMITED, get("203.0.113.9", BROWSER))).headers()).containsEntry("X-Qaldy-Shield", "denied-ip");
        assertThat(blocked(rules.check(LIMITED, get("198.51.100.5", BROWSER))).headers()).as("config's range still")
                .containsEntry("X-Qaldy-Shield", "denied-ip");
        assertThat(blocked(rules.check(LIMITED, get("10.0.0.1", "Wget/1.21"))).headers()).containsEntry("X-Qaldy-Shield", "bot-rule");
        assertThat(blocked(rules.check(LIMITED, get("10.0.0.1", "curl/8"))).headers()).as("config's pattern still")
                .containsEntry("X-Qaldy-Shield", "bot-rule");

        assertThat(rules.planOf(rules.settings().forApp("limited")).perClient().burst())
                .as("a higher number than the plan's is not applied").isEqualTo(3);
        assertThat(rules.check(LIMITED, get("10.0.0.1", BROWSER))).isInstanceOf(ShieldVerdict.Pass.class);
        assertThat(rules.check(LIMITED, get("10.0.0.2", BROWSER))).isInstanceOf(ShieldVerdict.Pass.class);
        Block day = blocked(rules.check(LIMITED, get("10.0.0.3", BROWSER)));
        assertThat(day.headers()).containsEntry("X-Qaldy-Shield", "daily-limit").containsEntry("RateLimit-Limit", "2");
    }

    @Test
    void aDailyRefusalCountsToTheNextStartOfDayInTheAppsZone() {
        // 21:00 UTC on June 1 is 11:00 on June 2 in Kiritimati (UTC+14): its next day starts at 10:00 UTC on June 2.
        OwnerSettings owner = OwnerSettings.read(jakarta.json.Json.createReader(new java.io.StringReader(
                "{\"app\":\"guestbook\",\"sequence\":4,\"perAppPerDay\":1,\"dayZone\":\"Pacific/Kiritimati\"}")).readObject(),
                problem -> { }).orElseThrow();
        assertThat(rules.settings().learn(owner)).isTrue();
        assertThat(rules.check(GUESTBOOK, get("10.0.0.1", BROWSER))).isInstanceOf(ShieldVerdict.Pass.class);
        Block day = blocked(rules.check(GUESTBOOK, get("10.0.0.1", BROWSER)));
        long toKiritimatiMidnight = Duration.ofHours(13).toSeconds();
        assertThat(day.headers()).containsEntry("X-Qaldy-Shield", "daily-limit")
                .containsEntry("Retry-After", Long.toString(toKiritimatiMidnight))
                .containsEntry("RateLimit-Reset", Long.toString(toKiritimatiMidnight));
        assertThat(day.page().sentence()).contains("2025-06-03 00:00 Pacific/Kiritimati");
        time.pass(Duration.ofHours(13));
        assertThat(rules.check(GUESTBOOK, get("10.0.0.1", BROWSER))).as("Kiritimati's new day").isInstanceOf(ShieldVerdict.Pass.class);
    }
}
