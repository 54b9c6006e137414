package dev.qaldy.gate.shield;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The shield's counters across a restart: each "gate" here is a new {@link ShieldRules} and
 * {@link ShieldMemory} over the same folder, with the same wall clock moved on by the downtime and
 * a monotonic clock of another origin, as a new process has.
 */
class ShieldMemoryTest {

    /**
     * "limited": 1 a minute with a burst of 3 per client (empty → full in 3 min); "daily": 5 a day;
     * "walled": 1000 a day; the API: 1 a minute with a burst of 3 per client.
     */
    private static final String[] CONFIG = {
        "qaldy.gate.shield.plan.tiny.per-client-per-minute=1",
        "qaldy.gate.shield.plan.tiny.burst=3",
        "qaldy.gate.shield.plan.few.per-app-per-day=5",
        "qaldy.gate.shield.api.per-client-per-minute=1",
        "qaldy.gate.shield.api.burst=3",
        "qaldy.gate.shield.plan.wide.per-client-per-minute=60000",
        "qaldy.gate.shield.plan.wide.burst=10000",
        "qaldy.gate.shield.plan.wide.per-app-per-minute=60000",
        "qaldy.gate.shield.plan.wide.per-app-burst=10000",
        "qaldy.gate.shield.plan.wide.per-app-per-day=1000",
        "qaldy.gate.shield.app.limited.plan=tiny",
        "qaldy.gate.shield.app.daily.plan=few",
        "qaldy.gate.shield.app.walled.plan=wide"};
    private static final ShieldTarget LIMITED = new ShieldTarget.App("limited");
    private static final ShieldTarget WALLED = new ShieldTarget.App("walled");
    private static final ShieldTarget DAILY = new ShieldTarget.App("daily");
    private static final ShieldTarget API = new ShieldTarget.Api();
    private static final Instant NOON = Instant.parse("2025-06-01T12:00:00Z");

    @TempDir
    Path dir;

    private final List<LogRecord> logged = new ArrayList<>();
    private final Logger log = Logger.getAnonymousLogger();
    private long nextOrigin = 1_000_000_000L;

    private FakeTime time;
    private ShieldRules rules;
    private ShieldMemory memory;

    @BeforeEach
    void capture() {
        log.setUseParentHandlers(false);
        log.addHandler(new Handler() {
            @Override
            public void publish(LogRecord record) {
                logged.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        });
        startAt(NOON);
    }

    /** A gate process starting at {@code wall}: reads what the folder holds. */
    private void startAt(Instant wall) {
        time = new FakeTime(wall, nextOrigin);
        nextOrigin += 7_777_777_777_777L; // monotonic clocks of different processes share nothing
        rules = ShieldConfigTest.rules(time, CONFIG);
        memory = new ShieldMemory(dir, rules.buckets(), rules.days(), time, time, log);
        memory.restore();
    }

    /** The gate stops: gracefully (the exact counts written) or by SIGKILL (nothing more written). */
    private void stop(boolean graceful) {
        if (graceful) {
            memory.flush(true);
        }
    }

    private ShieldVerdict request(ShieldTarget target, String client) {
        return rules.check(target, new ShieldRequest("GET", "/", 1, 3, 100, "Mozilla/5.0", client, List.of()));
    }

    /** Requests until the first refusal (at most {@code max}); how many passed. */
    private int passing(ShieldTarget target, String client, int max) {
        for (int i = 0; i < max; i++) {
            if (request(target, client) instanceof ShieldVerdict.Block) {
                return i;
            }
        }
        return max;
    }

    private ShieldReason refusal(ShieldTarget target, String client) {
        ShieldVerdict verdict = request(target, client);
        return verdict instanceof ShieldVerdict.Block block ? block.reason() : null;
    }

    @ParameterizedTest(name = "{0} stop, down {1}: {2} pass")
    @CsvSource({
        "graceful, PT1S,   0",
        "graceful, PT59S,  0",
        "graceful, PT61S,  1",
        "graceful, PT2M1S, 2",
        "graceful, PT3M,   3",
        "graceful, PT2H,   3",
        "SIGKILL,  PT1S,   0",
        "SIGKILL,  PT61S,  1",
        "SIGKILL,  PT3M,   3"})
    void aClientLimitedBeforeARestartStaysLimitedForTheRestOfItsWindow(String stop, Duration down, int passes) {
        assertThat(passing(LIMITED, "203.0.113.9", 10)).as("the burst of 3").isEqualTo(3);
        memory.flush(false); // the periodic write, before the stop
        stop(stop.equals("graceful"));
        startAt(NOON.plus(down));
        assertThat(passing(LIMITED, "203.0.113.9", 10)).as("refilled by the downtime only, 1 a minute").isEqualTo(passes);
        assertThat(passing(LIMITED, "198.51.100.1", 10)).as("another client's bucket is its own, full").isEqualTo(3);
    }

    @ParameterizedTest(name = "{0} stop, back at {1}: {2}")
    @CsvSource({
        "graceful, 2025-06-01T12:00:05Z, DAILY_LIMIT",
        "graceful, 2025-06-01T23:59:59Z, DAILY_LIMIT",
        "graceful, 2025-06-02T00:00:00Z, ",
        "SIGKILL,  2025-06-01T13:00:00Z, DAILY_LIMIT",
        "SIGKILL,  2025-06-02T00:00:01Z, "})
    void anAppThatReachedItsDailyLimitStaysLimitedUntilItsDayEnds(String stop, Instant back, ShieldReason expected) {
        for (int client = 0; client < 5; client++) {
            assertThat(request(DAILY, "203.0.113." + client)).isInstanceOf(ShieldVerdict.Pass.class);
        }
        assertThat(refusal(DAILY, "203.0.113.77")).isEqualTo(ShieldReason.DAILY_LIMIT);
        memory.flush(false);
        stop(stop.equals("graceful"));
        startAt(back);
        assertThat(refusal(DAILY, "203.0.113.78")).isEqualTo(expected);
    }

    /**
     * A SIGKILL between two periodic writes loses what was counted after the last one; the reserve
     * ahead makes up for it as long as the pace did not rise: the restarted gate never lets through
     * more of the day's requests than were left.
     */
    @ParameterizedTest(name = "{0} requests a second, killed {1} requests after a write")
    @CsvSource({"1, 0", "1, 1", "10, 3", "10, 10", "100, 100", "0, 0"})
    void aKillBetweenWritesNeverGivesBackMoreThanWasLeft(int perSecond, int afterLastWrite) {
        int counted = 0;
        for (int second = 0; second < 5; second++) {
            for (int i = 0; i < perSecond; i++) {
                assertThat(request(WALLED, "203.0.113.9")).isInstanceOf(ShieldVerdict.Pass.class);
                counted++;
            }
            time.pass(Duration.ofSeconds(1));
            memory.flush(false);
        }
        for (int i = 0; i < afterLastWrite; i++) {
            request(WALLED, "203.0.113.9");
            counted++;
        }
        stop(false);
        startAt(time.instant().plusSeconds(20));
        int left = passing(WALLED, "203.0.113.9", 2000);
        assertThat(left).as("never more than the %d left", 1000 - counted).isLessThanOrEqualTo(1000 - counted);
        assertThat(left).as("at most one interval's pace held back").isGreaterThanOrEqualTo(1000 - counted - perSecond);
    }

    @Test
    void aGracefulStopWritesTheExactCounts() {
        for (int i = 0; i < 40; i++) {
            request(WALLED, "203.0.113.9");
        }
        memory.flush(false);
        memory.flush(false); // a second write reserves nothing: nothing was counted since the first
        for (int i = 0; i < 2; i++) {
            request(WALLED, "203.0.113.9");
        }
        stop(true);
        startAt(NOON.plusSeconds(30));
        assertThat(passing(WALLED, "203.0.113.9", 2000)).isEqualTo(1000 - 42);
    }

    @Test
    void aBucketThatFilledUpAgainBetweenWritesIsNotKept() throws Exception {
        for (int i = 0; i < 5; i++) {
            request(WALLED, "203.0.113.9");
        }
        memory.flush(false);
        time.pass(Duration.ofSeconds(1)); // refilled long since: what it used was made up before this write
        memory.flush(false);
        assertThat(Files.readAllLines(dir.resolve(ShieldMemory.FILE))).noneMatch(l -> l.startsWith("{\"bucket\""));
    }

    @Test
    void aWallClockSetBackDuringTheDowntimeRefillsNothing() {
        assertThat(passing(LIMITED, "203.0.113.9", 10)).isEqualTo(3);
        stop(true);
        startAt(NOON.minus(Duration.ofHours(3)));
        assertThat(passing(LIMITED, "203.0.113.9", 10)).isZero();
    }

    @Test
    void onlyBucketsThatAreNotFullAreKept() throws Exception {
        for (int client = 0; client < 500; client++) {
            request(WALLED, "10.0." + client / 250 + "." + client % 250);
        }
        assertThat(passing(LIMITED, "203.0.113.9", 10)).isEqualTo(3);
        time.pass(Duration.ofSeconds(1)); // the wide buckets are full again, the tiny one is not
        stop(true);
        List<String> lines = Files.readAllLines(dir.resolve(ShieldMemory.FILE));
        assertThat(lines).filteredOn(l -> l.startsWith("{\"bucket\"")).hasSize(1).allMatch(l -> l.contains("203.0.113.9"));
        assertThat(lines).filteredOn(l -> l.startsWith("{\"day\"")).hasSize(2);
    }

    @Test
    void nothingKeptYetIsAFreshStart() {
        assertThat(passing(LIMITED, "203.0.113.9", 10)).isEqualTo(3);
        assertThat(logged).noneMatch(r -> r.getLevel().intValue() >= Level.WARNING.intValue());
    }

    @ParameterizedTest(name = "written {0} before the restart")
    @CsvSource({"PT10S", "PT1M", "PT2H"})
    void aCorruptFileIsSetAsideAndWhatItHeldCountsAsUsedUp(Duration writtenBefore) throws Exception {
        Path file = dir.resolve(ShieldMemory.FILE);
        Files.writeString(file, "{\"file\":\"qaldy-gate-shield-state\",\"v\":1,\"savedAtMs\":0}\n{\"bucket\":");
        Instant restart = NOON.plus(Duration.ofHours(6));
        Files.setLastModifiedTime(file, FileTime.from(restart.minus(writtenBefore)));
        logged.clear();
        startAt(restart);

        assertThat(file).doesNotExist();
        assertThat(dir.resolve(ShieldMemory.FILE + ".refused")).exists();
        assertThat(logged).filteredOn(r -> r.getLevel() == Level.WARNING).as("one line").hasSize(1);
        // a bucket starts as if emptied when the file was last written: 1 a minute since then, at most the burst of 3
        long minutes = Math.min(3, writtenBefore.toMinutes());
        assertThat(passing(API, "203.0.113.9", 10)).isEqualTo((int) minutes);
        assertThat(refusal(WALLED, "203.0.113.10")).as("the day in force when it was written counts as used up")
                .isEqualTo(ShieldReason.DAILY_LIMIT);

        time.pass(Duration.ofHours(6)); // the next day (UTC)
        assertThat(passing(WALLED, "203.0.113.11", 2000)).isEqualTo(1000);
    }

    @Test
    void aCorruptFileWrittenOnAnEarlierDayLeavesTodayAlone() throws Exception {
        Path file = dir.resolve(ShieldMemory.FILE);
        Files.writeString(file, "not a shield state");
        Files.setLastModifiedTime(file, FileTime.from(NOON.minus(Duration.ofDays(1))));
        startAt(NOON);
        assertThat(passing(WALLED, "203.0.113.10", 2000)).isEqualTo(1000);
        assertThat(passing(LIMITED, "203.0.113.9", 10)).isEqualTo(3);
    }

    @Test
    void aDamagedFileIsNeverOverwrittenBeforeItIsSetAside() throws Exception {
        Path file = dir.resolve(ShieldMemory.FILE);
        Files.writeString(file, "garbage");
        startAt(NOON);
        request(WALLED, "203.0.113.10");
        stop(true);
        assertThat(Files.readString(dir.resolve(ShieldMemory.FILE + ".refused"))).isEqualTo("garbage");
        assertThat(ShieldStateFile.read(file, 10)).isInstanceOf(ShieldStateFile.Held.class);
        assertThat(Map.of("dir", Optional.of(dir.toString())).get("dir")).isPresent();
    }
}
