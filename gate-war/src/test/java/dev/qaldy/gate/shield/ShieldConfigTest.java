package dev.qaldy.gate.shield;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class ShieldConfigTest {

    static final Logger LOG = Logger.getLogger(ShieldConfigTest.class.getName());

    /** Rules from these properties ("key=value" strings) on {@code time}. */
    static ShieldRules rules(FakeTime time, String... properties) {
        Map<String, String> config = new HashMap<>();
        for (String property : properties) {
            int eq = property.indexOf('=');
            config.put(property.substring(0, eq), property.substring(eq + 1));
        }
        return new ShieldConfig(name -> Optional.ofNullable(config.get(name)), LOG).rules(config.keySet(), time, time);
    }

    private final FakeTime time = new FakeTime(Instant.parse("2025-06-01T12:00:00Z"));

    @Test
    void defaults() {
        ShieldRules rules = rules(time);
        assertThat(rules.plans()).containsOnlyKeys("free");
        assertThat(rules.plans().get("free")).isEqualTo(Plan.FREE_DEFAULTS);
        assertThat(Plan.FREE_DEFAULTS.perClient()).isEqualTo(new Limit(600, 100));
        assertThat(Plan.FREE_DEFAULTS.perApp()).isEqualTo(new Limit(6000, 1000));
        assertThat(Plan.FREE_DEFAULTS.perAppPerDay()).isEqualTo(100_000);
        assertThat(rules.days().zone()).isEqualTo(ZoneId.of("UTC"));
        assertThat(rules.summary()).contains("Limit[perMinute=300, burst=50]").contains("Limit[perMinute=30, burst=20]")
                .contains("/api/v1/sessions").contains("(?i)sqlmap");
    }

    @Test
    void aPlanTakesTheFreePlansNumbersItLeavesOut() {
        ShieldRules rules = rules(time, "qaldy.gate.shield.plan.free.per-app-per-day=5000",
                "qaldy.gate.shield.plan.pro.per-client-per-minute=1200",
                "qaldy.gate.shield.plan.pro.per-app-burst=7",
                "qaldy.gate.shield.plan.tiny.burst=2");
        assertThat(rules.plans()).containsOnlyKeys("free", "pro", "tiny");
        Plan pro = rules.plans().get("pro");
        assertThat(pro.perClient()).isEqualTo(new Limit(1200, 200));
        assertThat(pro.perApp()).isEqualTo(new Limit(6000, 7));
        assertThat(pro.perAppPerDay()).isEqualTo(5000);
        assertThat(rules.plans().get("tiny").perClient()).isEqualTo(new Limit(600, 2));
    }

    @Test
    void appsGetTheirOwnSettingsFromConfigAndEveryOtherAppTheDefault() {
        ShieldRules rules = rules(time, "qaldy.gate.shield.plan.pro.per-client-per-minute=1200",
                "qaldy.gate.shield.app.memo.plan=pro",
                "qaldy.gate.shield.app.memo.blocked-user-agents=(?i)^curl/",
                "qaldy.gate.shield.app.memo.denied-cidrs=198.51.100.0/24",
                "qaldy.gate.shield.app.my-app.plan=gold",
                "qaldy.gate.shield.app.memo.colour=blue");
        AppShieldSettings memo = rules.settings().forApp("memo");
        assertThat(memo.plan()).isEqualTo("pro");
        assertThat(memo.blockedUserAgents()).extracting(Pattern::pattern).containsExactly("(?i)^curl/");
        assertThat(memo.deniedRanges()).hasToString("[198.51.100.0/24]");
        assertThat(rules.planOf(new AppShieldSettings("pro", List.of(), IpRanges.NONE)).perClient().perMinute()).isEqualTo(1200);
        assertThat(rules.planOf(new AppShieldSettings("gold", List.of(), IpRanges.NONE)))
                .as("a plan without limits in config counts as free").isEqualTo(rules.plans().get("free"));
        assertThat(rules.summary()).contains("[memo, my-app]");
        assertThat(rules.settings().forApp("my-app").plan()).isEqualTo("gold");
        assertThat(rules.settings().forApp("guestbook")).isEqualTo(AppShieldSettings.DEFAULT);
        assertThat(AppShieldSettings.DEFAULT.plan()).isEqualTo("free");
        // what the console shows beside the shield's fields (issue 20): the app's plan, free for any other name
        assertThat(rules.planOf("memo")).isEqualTo(rules.plans().get("pro"));
        assertThat(rules.planOf("my-app")).as("a plan without limits in config").isEqualTo(rules.plans().get("free"));
        assertThat(rules.planOf("no-such-app")).isEqualTo(rules.plans().get("free"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {
        "qaldy.gate.shield.max-buckets=lots;               qaldy.gate.shield.max-buckets",
        "qaldy.gate.shield.max-buckets=0;                  qaldy.gate.shield.max-buckets",
        "qaldy.gate.shield.denied-cidrs=10.0.0.0/8,nope;   qaldy.gate.shield.denied-cidrs",
        "qaldy.gate.trusted-proxies=10.0.0.0/40;           qaldy.gate.trusted-proxies",
        "qaldy.gate.shield.day-zone=Mars/Olympus;          qaldy.gate.shield.day-zone",
        "qaldy.gate.shield.blocked-user-agents=(oops;      qaldy.gate.shield.blocked-user-agents",
        "qaldy.gate.shield.require-user-agent=maybe;       qaldy.gate.shield.require-user-agent",
        "qaldy.gate.shield.plan.free.burst=0;              qaldy.gate.shield.plan.free.burst",
        "qaldy.gate.shield.plan.Pro.burst=5;               qaldy.gate.shield.plan.Pro.burst",
        "qaldy.gate.shield.app.Bad_App.plan=free;          qaldy.gate.shield.app.Bad_App.plan",
        "qaldy.gate.shield.app.memo.denied-cidrs=memo.example; qaldy.gate.shield.app.memo.denied-cidrs",
        "qaldy.gate.shield.ipv6-client-prefix=129;         qaldy.gate.shield.ipv6-client-prefix",
    })
    void aBadValueStopsTheGateNamingTheProperty(String property, String named) {
        assertThatThrownBy(() -> rules(time, property)).isInstanceOf(RuntimeException.class).hasMessageContaining(named);
    }

    @Test
    void unknownKeysAreIgnored() {
        ShieldRules rules = rules(time, "qaldy.gate.shield.plan.free.per-week=5", "qaldy.gate.shield.app.memo=pro");
        assertThat(rules.plans().get("free")).isEqualTo(Plan.FREE_DEFAULTS);
    }
}
