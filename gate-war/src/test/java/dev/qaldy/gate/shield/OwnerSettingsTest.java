package dev.qaldy.gate.shield;

import dev.qaldy.gate.platform.LearnedFile;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

class OwnerSettingsTest {

    private static JsonObject json(String text) {
        return Json.createReader(new StringReader(text)).readObject();
    }

    private static OwnerSettings read(String text, List<String> problems) {
        return OwnerSettings.read(json(text), problems::add).orElseThrow();
    }

    @Test
    void ownLimitsOnlyTightenThePlan() {
        Plan free = Plan.FREE_DEFAULTS;
        assertThat(OwnLimits.NONE.tighten(free)).isSameAs(free);
        Plan tight = new OwnLimits(60, 0, 3).tighten(free);
        assertThat(tight.perClient()).isEqualTo(new Limit(60, 10));
        assertThat(tight.perApp()).isEqualTo(free.perApp());
        assertThat(tight.perAppPerDay()).isEqualTo(3);
        Plan looser = new OwnLimits(1_000_000, 1_000_000, 1_000_000_000).tighten(free);
        assertThat(looser).as("an owner never gets more than the plan").isEqualTo(free);
        assertThat(new OwnLimits(6, 0, 0).tighten(free).perClient()).isEqualTo(new Limit(6, 1));
    }

    @Test
    void aFeedEntryIsReadLeavingOutWhatDoesNotParse() {
        List<String> problems = new ArrayList<>();
        OwnerSettings owner = read("""
                {"app":"guestbook","sequence":7,"perClientPerMinute":null,"perAppPerMinute":0,"perAppPerDay":3,
                 "blockedUserAgents":["(?i)curl","(broken"],"deniedCidrs":["203.0.113.0/24","example.com"],"extra":1}""", problems);
        assertThat(owner.app()).isEqualTo("guestbook");
        assertThat(owner.sequence()).isEqualTo(7);
        assertThat(owner.limits()).isEqualTo(new OwnLimits(0, 0, 3));
        assertThat(owner.blockedUserAgents()).extracting(java.util.regex.Pattern::pattern).containsExactly("(?i)curl");
        assertThat(owner.deniedRanges().ranges()).extracting(Cidr::toString).containsExactly("203.0.113.0/24");
        assertThat(problems).hasSize(2);
        assertThat(OwnerSettings.read(json("{\"app\":\"Bad.Name\",\"sequence\":1}"), problems::add)).isEmpty();
        assertThat(OwnerSettings.read(json("{\"app\":\"ok\"}"), problems::add)).isEmpty();
    }

    @Test
    void learnedSettingsJoinConfigsAndALaterChangeWinsAndEmptySettingsAreForgotten() throws Exception {
        AppShieldSettings configured = new AppShieldSettings("tiny", BotRules.patterns("(?i)wget"), IpRanges.parse("192.0.2.0/24"));
        ShieldSettings settings = new ShieldSettings(Map.of("guestbook", configured), 2);
        List<String> problems = new ArrayList<>();
        assertThat(settings.learn(read("{\"app\":\"guestbook\",\"sequence\":5,\"perAppPerDay\":3,\"blockedUserAgents\":[\"(?i)curl\"]}",
                problems))).isTrue();
        AppShieldSettings joined = settings.forApp("guestbook");
        assertThat(joined.plan()).as("the plan stays config's").isEqualTo("tiny");
        assertThat(joined.blockedUserAgents()).extracting(java.util.regex.Pattern::pattern).containsExactly("(?i)wget", "(?i)curl");
        assertThat(joined.deniedRanges().contains(InetAddress.getByName("192.0.2.9"))).isTrue();
        assertThat(joined.limits().perAppPerDay()).isEqualTo(3);

        settings.learn(read("{\"app\":\"guestbook\",\"sequence\":4,\"perAppPerDay\":99}", problems));
        assertThat(settings.forApp("guestbook").limits().perAppPerDay()).as("an older change does not replace a newer one").isEqualTo(3);

        assertThat(settings.learn(read("{\"app\":\"memo\",\"sequence\":6,\"perAppPerDay\":1}", problems))).isTrue();
        assertThat(settings.learn(read("{\"app\":\"third\",\"sequence\":7,\"perAppPerDay\":1}", problems)))
                .as("bounded: a third app is not kept").isFalse();
        assertThat(settings.forApp("third")).isEqualTo(AppShieldSettings.DEFAULT);

        settings.learn(read("{\"app\":\"guestbook\",\"sequence\":8}", problems));
        assertThat(settings.forApp("guestbook")).as("cleared: config's again").isSameAs(configured);
        assertThat(settings.learned()).containsOnlyKeys("memo");
    }

    @Test
    void theCopyOnDiskComesBackAsItWasWritten(@TempDir Path dir) throws Exception {
        List<String> problems = new ArrayList<>();
        OwnerSettings owner = read("{\"app\":\"guestbook\",\"sequence\":9,\"perClientPerMinute\":30,\"perAppPerDay\":3,"
                + "\"blockedUserAgents\":[\"(?i)curl\"],\"deniedCidrs\":[\"2001:db8::/32\"]}", problems);
        Path file = dir.resolve("gate-shield/shield-settings.json");
        ShieldSettingsFeed.writeCopy(file, 12, List.of(owner), true);
        LearnedFile.Held<OwnerSettings> held = (LearnedFile.Held<OwnerSettings>) ShieldSettingsFeed.readCopy(file);
        assertThat(held.next()).isEqualTo(12);
        assertThat(ShieldSettingsFeed.complete(held)).isTrue();
        assertThat(held.entries()).hasSize(1);
        OwnerSettings back = held.entries().get(0);
        assertThat(back.limits()).isEqualTo(owner.limits());
        assertThat(back.sequence()).isEqualTo(9);
        assertThat(back.blockedUserAgents().get(0).pattern()).isEqualTo("(?i)curl");
        assertThat(back.deniedRanges()).isEqualTo(owner.deniedRanges());
        assertThat(problems).isEmpty();

        assertThat(ShieldSettingsFeed.readCopy(dir.resolve("none.json"))).as("never written").isInstanceOf(LearnedFile.Missing.class);
        ShieldSettingsFeed.writeCopy(file, 4, List.of(owner), false);
        assertThat(ShieldSettingsFeed.complete((LearnedFile.Held<OwnerSettings>) ShieldSettingsFeed.readCopy(file))).as("read again in part")
                .isFalse();
    }

    /** The gate wrote every entry itself: anything it cannot read back means the copy is damaged, never "nothing set". */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "not JSON               | not json",
        "cut short              | {\"next\":12,\"settings\":[{\"app\":\"guestbook\",\"sequence\":9",
        "no position            | {\"settings\":[]}",
        "a negative position    | {\"next\":-1,\"settings\":[]}",
        "an entry not an object | {\"next\":1,\"settings\":[7]}",
        "an entry without app   | {\"next\":1,\"settings\":[{\"sequence\":9}]}",
        "a bad pattern          | {\"next\":1,\"settings\":[{\"app\":\"a\",\"sequence\":1,\"blockedUserAgents\":[\"(\"]}]}",
        "a bad range            | {\"next\":1,\"settings\":[{\"app\":\"a\",\"sequence\":1,\"deniedCidrs\":[\"x\"]}]}",
        "complete is not a flag | {\"next\":1,\"settings\":[],\"complete\":\"yes\"}"})
    void aDamagedCopyIsCorrupt(String what, String content, @TempDir Path dir) throws Exception {
        Path file = dir.resolve("shield-settings.json");
        Files.writeString(file, content);
        assertThat(ShieldSettingsFeed.readCopy(file)).isInstanceOf(LearnedFile.Corrupt.class);
    }

    @Test
    void whileTheOwnersSettingsAreUnknownAppTrafficGets503AndTheApiDoesNot() {
        FakeTime time = new FakeTime(java.time.Instant.parse("2025-06-01T12:00:00Z"));
        ShieldRules rules = ShieldConfigTest.rules(time);
        ShieldRequest get = new ShieldRequest("GET", "/", 1, 3, 100, "Mozilla/5.0", "203.0.113.9", List.of());
        rules.settings().learn(read("{\"app\":\"guestbook\",\"sequence\":9,\"perAppPerDay\":3}", new ArrayList<>()));
        rules.settings().unknown();
        assertThat(rules.settings().learned()).as("forgotten").isEmpty();
        ShieldVerdict verdict = rules.check(new ShieldTarget.App("guestbook"), get);
        assertThat(verdict).isInstanceOf(ShieldVerdict.Block.class);
        ShieldVerdict.Block block = (ShieldVerdict.Block) verdict;
        assertThat(block.page().status()).isEqualTo(503);
        assertThat(block.headers()).containsEntry(ShieldReason.HEADER, "settings-unknown");
        assertThat(rules.check(new ShieldTarget.Api(), get)).as("the API has no owner settings").isInstanceOf(ShieldVerdict.Pass.class);
        rules.settings().known();
        assertThat(rules.check(new ShieldTarget.App("guestbook"), get)).isInstanceOf(ShieldVerdict.Pass.class);
    }

    @Test
    void theDayZoneIsReadWrittenAndJoinedAndAnUnknownOneFallsBackToTheDefault(@TempDir Path dir) throws Exception {
        List<String> problems = new ArrayList<>();
        OwnerSettings berlin = read("{\"app\":\"guestbook\",\"sequence\":3,\"dayZone\":\"Europe/Berlin\"}", problems);
        assertThat(berlin.dayZone()).isEqualTo(java.time.ZoneId.of("Europe/Berlin"));
        assertThat(berlin.none()).as("a zone alone is a setting").isFalse();
        assertThat(berlin.toJson().getString("dayZone")).isEqualTo("Europe/Berlin");
        assertThat(read("{\"app\":\"guestbook\",\"sequence\":3,\"dayZone\":null}", problems).dayZone()).isNull();
        assertThat(read("{\"app\":\"guestbook\",\"sequence\":3}", problems).toJson().isNull("dayZone")).isTrue();
        assertThat(problems).isEmpty();
        for (String bad : List.of("\"Mars/Olympus\"", "\"+01:00\"", "7", "\"" + "A".repeat(100) + "\"")) {
            OwnerSettings fallback = read("{\"app\":\"guestbook\",\"sequence\":3,\"perAppPerDay\":3,\"dayZone\":" + bad + "}", problems);
            assertThat(fallback.dayZone()).as(bad).isNull();
            assertThat(fallback.limits().perAppPerDay()).as("the rest still applies").isEqualTo(3);
        }
        assertThat(problems).hasSize(4).allSatisfy(p -> assertThat(p).contains("not a time zone").hasSizeLessThan(200));

        ShieldSettings settings = new ShieldSettings(Map.of());
        settings.learn(berlin);
        assertThat(settings.forApp("guestbook").dayZone()).isEqualTo(java.time.ZoneId.of("Europe/Berlin"));

        Path file = dir.resolve("shield-settings.json");
        ShieldSettingsFeed.writeCopy(file, 3, List.of(berlin), true);
        assertThat(((LearnedFile.Held<OwnerSettings>) ShieldSettingsFeed.readCopy(file)).entries().get(0).dayZone())
                .as("on disk, for a gate restarted with the API down").isEqualTo(java.time.ZoneId.of("Europe/Berlin"));
    }
}
