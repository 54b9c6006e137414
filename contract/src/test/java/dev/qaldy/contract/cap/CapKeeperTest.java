package dev.qaldy.contract.cap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.contract.cap.CapKeeper.Offer;
import dev.qaldy.contract.cap.CapKeeper.Refusal;
import dev.qaldy.contract.cap.CapKeeper.UsageBatch;
import dev.qaldy.contract.cap.CapKeeper.UsageItem;
import dev.qaldy.contract.cap.CapKeeper.Verdict;
import dev.qaldy.contract.keys.CellKeys;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.text.MessageFormat;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CapKeeperTest {

    static final Instant NOW = Instant.parse("2026-03-14T12:00:00Z");
    static final Duration LEEWAY = Duration.ofMinutes(2);
    static final KeyPair CELL = CellKeys.generate();
    static final KeyPair OTHER = CellKeys.generate();
    static final Prices PRICES = new Prices(50, 2);
    static final long ANA = 7;

    final MovableClock clock = new MovableClock(NOW);
    final List<LogRecord> logged = new CopyOnWriteArrayList<>();
    final Logger log = Logger.getAnonymousLogger();

    {
        log.setUseParentHandlers(false);
        log.setLevel(Level.ALL);
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
    }

    CapKeeper keeper(Path dir) {
        return new CapKeeper(CellKeys.published(CELL), clock, LEEWAY, dir, log, 1000);
    }

    static CapState state(long sequence, String period, long capCents, long spentMillicents, Instant issuedAt) {
        return new CapState(ANA, period, capCents, spentMillicents, issuedAt.toEpochMilli(), PRICES, issuedAt.toEpochMilli(), sequence);
    }

    static String sign(CapState state) {
        return CapStates.sign(state, CellKeys.signing(CELL));
    }

    static String forge(String jws) {
        String[] parts = jws.split("\\.");
        String claims = new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8).replace("\"capCents\":100", "\"capCents\":100000");
        return parts[0] + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(claims.getBytes(StandardCharsets.UTF_8)) + "." + parts[2];
    }

    /** Offers made to a keeper that holds sequence 10 of March (cap 100 cents, 40 spent), at {@code now}. */
    static Stream<Arguments> offers() {
        CapState held = state(10, "2026-03", 100, 40_000, NOW.minusSeconds(60));
        return Stream.of(
                Arguments.of("a newer sequence", NOW, sign(state(11, "2026-03", 100, 41_000, NOW)), "accepted"),
                Arguments.of("the same change signed again", NOW, sign(held), "already-held"),
                Arguments.of("the same sequence with other numbers", NOW, sign(state(10, "2026-03", 500, 0, NOW)), Refusal.OLDER_SEQUENCE),
                Arguments.of("an older sequence", NOW, sign(state(9, "2026-03", 500, 0, NOW)), Refusal.OLDER_SEQUENCE),
                Arguments.of("another key", NOW, CapStates.sign(state(11, "2026-03", 500, 0, NOW), CellKeys.signing(OTHER)),
                        Refusal.UNVERIFIABLE),
                Arguments.of("forged claims", NOW, forge(sign(state(11, "2026-03", 100, 0, NOW))), Refusal.UNVERIFIABLE),
                Arguments.of("garbage", NOW, "not.a.state", Refusal.UNVERIFIABLE),
                Arguments.of("nothing", NOW, null, Refusal.UNVERIFIABLE),
                Arguments.of("a period that is over", NOW, sign(state(11, "2026-02", 500, 0, NOW)), Refusal.PERIOD_OVER),
                Arguments.of("a period that just ended, within the leeway", Instant.parse("2026-04-01T00:01:00Z"),
                        sign(state(11, "2026-03", 500, 0, Instant.parse("2026-03-31T23:59:59Z"))), "accepted"),
                Arguments.of("a period that ended beyond the leeway", Instant.parse("2026-04-01T00:02:00Z"),
                        sign(state(11, "2026-03", 500, 0, Instant.parse("2026-03-31T23:59:59Z"))), Refusal.PERIOD_OVER),
                Arguments.of("signed a minute ahead of this clock", NOW, sign(state(11, "2026-03", 500, 0, NOW.plusSeconds(60))), "accepted"),
                Arguments.of("signed beyond the leeway ahead", NOW, sign(state(11, "2026-03", 500, 0, NOW.plusSeconds(180))),
                        Refusal.FROM_THE_FUTURE),
                Arguments.of("the next period, from a control plane whose clock is ahead", Instant.parse("2026-03-31T23:59:30Z"),
                        sign(state(11, "2026-04", 500, 0, Instant.parse("2026-04-01T00:00:10Z"))), "accepted"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("offers")
    void offers_are_accepted_or_refused_and_a_refusal_keeps_the_last_good_state(String what, Instant now, String jws, Object expected) {
        clock.set(NOW.minusSeconds(60));
        CapKeeper keeper = keeper(null);
        CapState held = state(10, "2026-03", 100, 40_000, NOW.minusSeconds(60));
        assertThat(keeper.offer(sign(held))).isInstanceOf(Offer.Accepted.class);
        clock.set(now);
        logged.clear();

        Offer offer = keeper.offer(jws);

        if ("accepted".equals(expected)) {
            assertThat(offer).isInstanceOf(Offer.Accepted.class);
            assertThat(keeper.state(ANA).orElseThrow().sequence()).isEqualTo(11);
        } else if ("already-held".equals(expected)) {
            assertThat(offer).isInstanceOf(Offer.AlreadyHeld.class);
            assertThat(keeper.state(ANA)).hasValue(held);
            assertThat(logged).noneMatch(r -> r.getLevel() == Level.WARNING);
        } else {
            assertThat(offer).isInstanceOfSatisfying(Offer.Refused.class, r -> assertThat(r.reason()).isEqualTo(expected));
            assertThat(keeper.state(ANA)).as("the last good state stays").hasValue(held);
            assertThat(logged).anyMatch(r -> r.getLevel() == Level.WARNING && r.getMessage().contains("refused a cap state"));
        }
    }

    /** (cap, spent, requests counted here, cpu ms counted here) → awake or asleep; prices 50 per request, 2 per CPU ms. */
    static Stream<Arguments> verdicts() {
        return Stream.of(
                Arguments.of(1, 0, 19, 0, false),
                Arguments.of(1, 0, 20, 0, true),
                Arguments.of(1, 950, 0, 0, false),
                Arguments.of(1, 950, 1, 0, true),
                Arguments.of(1, 0, 0, 499, false),
                Arguments.of(1, 0, 0, 500, true),
                Arguments.of(1, 0, 10, 250, true),
                Arguments.of(0, 0, 0, 0, true),
                Arguments.of(500, 499_999, 0, 0, false),
                Arguments.of(500, 500_000, 0, 0, true));
    }

    @ParameterizedTest(name = "cap {0} cents, spent {1} millicents, {2} requests and {3} CPU ms here → asleep {4}")
    @MethodSource("verdicts")
    void the_app_sleeps_when_spent_plus_what_was_counted_here_reaches_the_cap(long cap, long spent, long requests, long cpuMs,
            boolean asleep) {
        CapKeeper keeper = keeper(null);
        keeper.offer(sign(state(1, "2026-03", cap, spent, NOW)));
        keeper.count(ANA, "guestbook", requests, cpuMs);
        Verdict verdict = keeper.verdict(ANA);
        assertThat(verdict).isInstanceOf(asleep ? Verdict.Asleep.class : Verdict.Awake.class);
        if (verdict instanceof Verdict.Asleep sleeping) {
            assertThat(sleeping.retryAfter()).as("until the next period").isEqualTo(Duration.between(NOW, Instant.parse("2026-04-01T00:00:00Z")));
        }
    }

    @Test
    void an_account_never_received_is_unknown_never_awake() {
        CapKeeper keeper = keeper(null);
        assertThat(keeper.verdict(ANA)).isEqualTo(new Verdict.Unknown(ANA));
        keeper.count(ANA, "guestbook", 5, 0);
        assertThat(keeper.verdict(ANA)).as("counting does not make a cap up").isInstanceOf(Verdict.Unknown.class);
    }

    @Test
    void admit_judges_before_counting_and_counts_only_what_it_lets_through() {
        CapKeeper keeper = keeper(null);
        assertThat(keeper.admit(ANA, "guestbook", 1)).as("never received").isEqualTo(new Verdict.Unknown(ANA));
        keeper.offer(sign(state(1, "2026-03", 1, 0, NOW))); // 1 cent: 20 requests
        for (int i = 0; i < 20; i++) {
            assertThat(keeper.admit(ANA, "guestbook", 1)).as("request %d", i + 1).isInstanceOf(Verdict.Awake.class);
        }
        assertThat(keeper.admit(ANA, "guestbook", 1)).as("the 21st: the 20 counted reach the cap").isInstanceOf(Verdict.Asleep.class);
        assertThat(keeper.admit(ANA, "guestbook", 1)).isInstanceOf(Verdict.Asleep.class);
        UsageBatch batch = keeper.nextBatch().orElseThrow();
        assertThat(batch.items()).as("the unknown and the refused requests were not counted")
                .containsExactly(new CapKeeper.UsageItem("guestbook", 20, 0));
    }

    @Test
    void a_state_whose_period_is_over_still_caps_and_only_a_new_state_wakes_the_account() {
        CapKeeper keeper = keeper(null);
        keeper.offer(sign(state(5, "2026-03", 1, 0, NOW)));
        keeper.count(ANA, "guestbook", 20, 0);
        assertThat(keeper.verdict(ANA)).isInstanceOf(Verdict.Asleep.class);

        clock.set(Instant.parse("2026-04-03T08:00:00Z")); // a new month, and the API was never heard from
        Verdict stillAsleep = keeper.verdict(ANA);
        assertThat(stillAsleep).as("an expired-looking state is never 'no cap'").isInstanceOf(Verdict.Asleep.class);
        assertThat(((Verdict.Asleep) stillAsleep).retryAfter()).isEqualTo(CapKeeper.RETRY_FLOOR);
        assertThat(keeper.offer(sign(state(6, "2026-03", 1000, 0, Instant.parse("2026-03-31T23:00:00Z")))))
                .as("a March state arriving in April is refused, even one that would wake it")
                .isInstanceOf(Offer.Refused.class);
        assertThat(keeper.verdict(ANA)).isInstanceOf(Verdict.Asleep.class);

        // An awake account on an old state keeps counting against it.
        CapKeeper other = keeper(null);
        clock.set(NOW);
        other.offer(sign(state(5, "2026-03", 1, 0, NOW)));
        clock.set(Instant.parse("2026-04-03T08:00:00Z"));
        other.count(ANA, "guestbook", 19, 0);
        assertThat(other.verdict(ANA)).isInstanceOf(Verdict.Awake.class);
        other.count(ANA, "guestbook", 1, 0);
        assertThat(other.verdict(ANA)).isInstanceOf(Verdict.Asleep.class);

        // The API is back: the usage is billed (at sequence 7), and its April state (a new period, a
        // higher sequence) wakes the account.
        UsageBatch march = keeper.nextBatch().orElseThrow();
        keeper.acknowledged(march.batchId(), Map.of(ANA, 7L));
        assertThat(keeper.verdict(ANA)).isInstanceOf(Verdict.Asleep.class);
        assertThat(keeper.offer(sign(state(9, "2026-04", 1, 0, Instant.parse("2026-04-03T08:00:00Z")))))
                .isInstanceOf(Offer.Accepted.class);
        assertThat(keeper.verdict(ANA)).isInstanceOf(Verdict.Awake.class);
    }

    @Test
    void usage_is_reported_in_batches_with_a_stable_id_until_acknowledged() {
        CapKeeper keeper = keeper(null);
        keeper.offer(sign(state(3, "2026-03", 100, 0, NOW)));
        keeper.count(ANA, "guestbook", 4, 10);
        keeper.count(ANA, "notes", 1, 0);

        UsageBatch first = keeper.nextBatch().orElseThrow();
        assertThat(first.items()).containsExactly(new UsageItem("guestbook", 4, 10), new UsageItem("notes", 1, 0));
        keeper.count(ANA, "guestbook", 2, 0);
        UsageBatch again = keeper.nextBatch().orElseThrow();
        assertThat(again).as("retried unchanged until acknowledged").isEqualTo(first);
        assertThat(keeper.held().get(0).unbilledRequests()).isEqualTo(7);

        keeper.acknowledged(first.batchId(), Map.of(ANA, 4L));
        assertThat(keeper.held().get(0).unbilledRequests()).as("acknowledged, not yet in a state: still counted").isEqualTo(7);
        UsageBatch second = keeper.nextBatch().orElseThrow();
        assertThat(second.batchId()).isNotEqualTo(first.batchId());
        assertThat(second.items()).containsExactly(new UsageItem("guestbook", 2, 0));

        keeper.offer(sign(state(4, "2026-03", 100, 5 * 50 + 10 * 2, NOW)));
        assertThat(keeper.held().get(0).unbilledRequests()).as("the state of sequence 4 includes the first batch").isEqualTo(2);
        assertThat(keeper.held().get(0).unbilledMillicents()).isEqualTo(100);

        keeper.acknowledged(second.batchId(), Map.of());
        assertThat(keeper.held().get(0).unbilledRequests()).as("not billed to this account: dropped").isZero();
        assertThat(keeper.nextBatch()).isEmpty();
    }

    @Test
    void a_state_that_arrives_before_its_acknowledgement_is_never_ahead_of_the_count_for_long() {
        CapKeeper keeper = keeper(null);
        keeper.offer(sign(state(3, "2026-03", 1, 0, NOW)));
        keeper.count(ANA, "guestbook", 10, 0);
        UsageBatch batch = keeper.nextBatch().orElseThrow();
        keeper.acknowledged(batch.batchId(), Map.of(ANA, 8L));
        keeper.offer(sign(state(7, "2026-03", 1, 0, NOW))); // a cap change before the usage: does not include it
        assertThat(keeper.held().get(0).unbilledRequests()).isEqualTo(10);
        keeper.offer(sign(state(8, "2026-03", 1, 500, NOW)));
        assertThat(keeper.held().get(0).unbilledRequests()).isZero();
        assertThat(keeper.verdict(ANA)).isInstanceOf(Verdict.Awake.class);
    }

    @Test
    void state_and_counted_usage_survive_a_restart(@TempDir Path dir) throws Exception {
        CapKeeper before = keeper(dir);
        before.offer(sign(state(12, "2026-03", 1, 300, NOW)));
        before.count(ANA, "guestbook", 10, 0);
        UsageBatch sealed = before.nextBatch().orElseThrow();
        before.count(ANA, "guestbook", 3, 0);
        before.flush();
        assertThat(Files.list(dir).map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("account-7.json",
                HighWaterMarks.FILE);

        CapKeeper after = keeper(dir);
        assertThat(after.load()).isEqualTo(1);
        assertThat(after.state(ANA)).hasValue(before.state(ANA).orElseThrow());
        assertThat(after.held().get(0).unbilledRequests()).as("neither lost nor reset").isEqualTo(13);
        assertThat(after.verdict(ANA)).as("300 + 13 × 50 = 950 of 1000").isInstanceOf(Verdict.Awake.class);
        after.count(ANA, "guestbook", 1, 0);
        assertThat(after.verdict(ANA)).isInstanceOf(Verdict.Asleep.class);
        assertThat(after.nextBatch()).as("the sealed batch goes out again under its own id").hasValue(sealed);
        assertThat(after.watermark()).isEqualTo(12);
    }

    @Test
    void a_sleep_is_on_disk_at_once_and_a_crash_after_it_keeps_the_account_asleep(@TempDir Path dir) {
        CapKeeper before = keeper(dir);
        before.offer(sign(state(2, "2026-03", 1, 0, NOW)));
        before.count(ANA, "guestbook", 20, 0);
        assertThat(before.verdict(ANA)).isInstanceOf(Verdict.Asleep.class); // no flush: the verdict wrote it

        CapKeeper after = keeper(dir);
        after.load();
        assertThat(after.verdict(ANA)).isInstanceOf(Verdict.Asleep.class);
    }

    static Stream<Arguments> badFiles() {
        Function<Long, String> file = id -> "{\"v\":1,\"accountId\":" + id + ",\"state\":\"%s\",\"open\":{\"guestbook\":[1,0]}}";
        return Stream.of(
                Arguments.of("signed by another key", String.format(file.apply(7L),
                        CapStates.sign(state(3, "2026-03", 100, 0, NOW), CellKeys.signing(OTHER)))),
                Arguments.of("forged claims", String.format(file.apply(7L), forge(sign(state(3, "2026-03", 100, 0, NOW))))),
                Arguments.of("another account's state", String.format(file.apply(7L),
                        sign(new CapState(8, "2026-03", 1, 0, 0, PRICES, NOW.toEpochMilli(), 3)))),
                Arguments.of("not JSON", "{{{"),
                Arguments.of("negative usage", String.format(file.apply(7L), sign(state(3, "2026-03", 100, 0, NOW)))
                        .replace("[1,0]", "[-5,0]")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badFiles")
    void a_kept_file_that_does_not_verify_is_refused_and_set_aside(String what, String content, @TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("account-7.json"), content);
        CapKeeper keeper = keeper(dir);
        assertThat(keeper.load()).isZero();
        assertThat(keeper.verdict(ANA)).isInstanceOf(Verdict.Unknown.class);
        assertThat(dir.resolve("account-7.json.refused")).exists();
        assertThat(logged).anyMatch(r -> r.getLevel() == Level.WARNING);
    }

    @Test
    void a_damaged_file_is_set_aside_with_one_line_and_the_other_accounts_still_load(@TempDir Path dir) throws Exception {
        CapKeeper before = keeper(dir);
        before.offer(sign(state(2, "2026-03", 100, 0, NOW)));
        before.count(ANA, "guestbook", 3, 0);
        before.flush();
        Files.copy(dir.resolve("account-7.json"), dir.resolve("account-8.json"));
        Files.writeString(dir.resolve("account-5.json"), "{\"v\":1,\"accountId\":5,\"state\":\"tr");
        Files.writeString(dir.resolve("account-9.json"), "");
        logged.clear();
        CapKeeper after = keeper(dir);
        assertThat(after.load()).as("account 7 only: 8 holds 7's file, 5 and 9 are damaged").isEqualTo(1);
        assertThat(after.verdict(ANA)).isInstanceOf(Verdict.Awake.class);
        for (long damaged : new long[] {5, 8, 9}) {
            assertThat(after.verdict(damaged)).as("account %d fails closed", damaged).isInstanceOf(Verdict.Unknown.class);
            assertThat(dir.resolve("account-" + damaged + ".json")).doesNotExist();
            assertThat(dir.resolve("account-" + damaged + ".json.refused")).exists();
        }
        assertThat(logged).filteredOn(r -> r.getLevel() == Level.WARNING).as("one line each").hasSize(3)
                .allMatch(r -> r.getMessage().contains("counts as unknown"));
        assertThat(after.held()).extracting(CapKeeper.Held::unbilledRequests).containsExactly(3L);
    }

    @Test
    void a_write_that_never_finished_is_cleared_and_an_older_file_stays_good(@TempDir Path dir) throws Exception {
        CapKeeper before = keeper(dir);
        before.offer(sign(state(2, "2026-03", 100, 0, NOW)));
        before.flush();
        Files.writeString(dir.resolve(".account-7.x.tmp"), "{\"half");
        CapKeeper after = keeper(dir);
        assertThat(after.load()).isEqualTo(1);
        assertThat(dir.resolve(".account-7.x.tmp")).doesNotExist();
    }

    @Test
    void an_account_file_deleted_does_not_let_an_older_state_of_the_period_back_in(@TempDir Path dir) throws Exception {
        // Issue 16: gate stopped, gate-cap/account-<id>.json deleted, gate started with the API down, an older signed
        // state pushed: it was taken (the rollback guard lived in the deleted file), and an app over its cap was served.
        String older = sign(state(3, "2026-03", 1, 0, NOW));
        CapKeeper before = keeper(dir);
        before.offer(older);
        before.offer(sign(state(5, "2026-03", 1, 1000, NOW)));
        assertThat(before.verdict(ANA)).isInstanceOf(Verdict.Asleep.class);
        Files.delete(dir.resolve("account-7.json"));

        CapKeeper after = keeper(dir);
        after.load();
        assertThat(after.verdict(ANA)).as("unknown (asleep while the API is down), not fresh").isInstanceOf(Verdict.Unknown.class);
        logged.clear();
        assertThat(after.offer(older)).isInstanceOfSatisfying(Offer.Refused.class,
                r -> assertThat(r.reason()).isEqualTo(Refusal.OLDER_SEQUENCE));
        assertThat(logged).anyMatch(r -> r.getLevel() == Level.WARNING && r.getParameters()[2].toString().contains("high-water mark"));
        assertThat(after.verdict(ANA)).isInstanceOf(Verdict.Unknown.class);
        assertThat(after.offer(sign(state(5, "2026-03", 1, 1000, NOW)))).as("the state it had").isInstanceOf(Offer.Accepted.class);
        assertThat(after.verdict(ANA)).isInstanceOf(Verdict.Asleep.class);
        assertThat(after.offer(sign(state(6, "2026-03", 2, 1000, NOW)))).isInstanceOf(Offer.Accepted.class);
    }

    @Test
    void a_newer_state_that_lowers_the_period_s_spending_is_taken_with_a_warning_and_a_raise_of_the_cap_is_not(@TempDir Path dir) {
        // Issue 16 item 5: a state that lowers what the edge already held was logged at FINE only.
        CapKeeper keeper = keeper(dir);
        keeper.offer(sign(state(5, "2026-03", 100, 40_000, NOW)));
        logged.clear();
        assertThat(keeper.offer(sign(state(6, "2026-03", 200, 40_000, NOW)))).as("a raised cap").isInstanceOf(Offer.Accepted.class);
        assertThat(keeper.offer(sign(state(7, "2026-04", 200, 0, NOW)))).as("a new period starts at 0").isInstanceOf(Offer.Accepted.class);
        assertThat(logged).noneMatch(r -> r.getLevel() == Level.WARNING);

        assertThat(keeper.offer(sign(state(8, "2026-04", 200, 9_000, NOW)))).isInstanceOf(Offer.Accepted.class);
        assertThat(keeper.offer(sign(state(9, "2026-04", 200, 2_000, NOW)))).isInstanceOf(Offer.Accepted.class);
        assertThat(logged).filteredOn(r -> r.getLevel() == Level.WARNING).singleElement()
                .satisfies(r -> assertThat(MessageFormat.format(r.getMessage(), r.getParameters()))
                        .contains("lowers what was spent in 2026-04 from 9 to 2 cents").contains("sequence 8"));
        assertThat(keeper.state(ANA)).hasValueSatisfying(held -> assertThat(held.sequence()).isEqualTo(9));
    }

    @Test
    void a_damaged_marks_file_is_set_aside_and_the_marks_come_from_the_account_files(@TempDir Path dir) throws Exception {
        CapKeeper before = keeper(dir);
        before.offer(sign(state(4, "2026-03", 1, 0, NOW)));
        Files.writeString(dir.resolve(HighWaterMarks.FILE), "{\"marks\":{\"7\":\"x");
        logged.clear();
        CapKeeper after = keeper(dir);
        assertThat(after.load()).isEqualTo(1);
        assertThat(dir.resolve(HighWaterMarks.FILE + ".refused")).exists();
        assertThat(logged).filteredOn(r -> r.getLevel() == Level.WARNING).hasSize(1);
        Files.delete(dir.resolve("account-7.json"));
        CapKeeper third = keeper(dir);
        third.load();
        assertThat(third.offer(sign(state(3, "2026-03", 1, 0, NOW)))).as("the mark was written again from the account file")
                .isInstanceOf(Offer.Refused.class);
    }

    @Test
    void the_watermark_is_the_highest_sequence_held() {
        CapKeeper keeper = keeper(null);
        assertThat(keeper.watermark()).isZero();
        keeper.offer(sign(state(4, "2026-03", 1, 0, NOW)));
        keeper.offer(CapStates.sign(new CapState(8, "2026-03", 1, 0, 0, PRICES, NOW.toEpochMilli(), 9),
                CellKeys.signing(CELL)));
        assertThat(keeper.watermark()).isEqualTo(9);
        assertThat(keeper.size()).isEqualTo(2);
    }
}
