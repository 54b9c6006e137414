package dev.qaldy.gate.sites;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.gate.access.MovableClock;
import dev.qaldy.gate.platform.ControlPlaneUnavailable;
import dev.qaldy.gate.sites.SiteDecision.Source;
import dev.qaldy.gate.sites.SiteDecision.Verdict;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/** The public-site rule against a scripted control plane and a clock the test moves. */
class PublicSitesTest {

    static final Duration FRESH = Duration.ofSeconds(30);
    static final Duration MEMORY = Duration.ofMinutes(30);

    /** What the stand-in control plane does next. */
    enum Mode { PUBLIC, PRIVATE, GONE, DOWN, ODD, BUG }

    final MovableClock clock = new MovableClock(Instant.parse("2026-11-30T10:00:00Z"));
    final AtomicInteger asked = new AtomicInteger();
    volatile Mode mode = Mode.PUBLIC;
    volatile long version = 1;
    /** What the gate's view of the control plane says: in doubt or not. */
    volatile boolean inDoubt;
    /** The monotonic clock of the gate's sync state, ns; stands still unless a test moves it. */
    final java.util.concurrent.atomic.AtomicLong nanos = new java.util.concurrent.atomic.AtomicLong();
    final dev.qaldy.gate.access.SyncState sync = synced(new dev.qaldy.gate.access.SyncState(nanos::get, Duration.ofSeconds(10)));
    final PublicSites sites = new PublicSites(app -> {
        asked.incrementAndGet();
        return switch (mode) {
            case PUBLIC -> new VisibilityAnswer(VisibilityAnswer.Kind.PUBLIC, version, 42, "public");
            case PRIVATE -> new VisibilityAnswer(VisibilityAnswer.Kind.PRIVATE, version, 42, "private");
            case GONE -> new VisibilityAnswer(VisibilityAnswer.Kind.UNKNOWN_APP, -1, -1, "HTTP 404");
            case ODD -> new VisibilityAnswer(VisibilityAnswer.Kind.UNUSABLE, -1, -1, "HTTP 401");
            case DOWN -> throw new ControlPlaneUnavailable("connection refused");
            case BUG -> throw new IllegalStateException("a bug in the gate");
        };
    }, () -> inDoubt, sync, clock, Logger.getAnonymousLogger(), FRESH, MEMORY, 100);

    private static dev.qaldy.gate.access.SyncState synced(dev.qaldy.gate.access.SyncState state) {
        state.pulled(0);
        return state;
    }

    @Test
    void a_gate_out_of_touch_with_the_sharing_changes_asks_instead_of_using_a_fresh_copy_and_serves_no_copy_in_an_outage() {
        sites.check("docs");
        nanos.addAndGet(Duration.ofSeconds(12).toNanos()); // paused 12 s: no watchdog tick, no sync
        clock.move(Duration.ofSeconds(12));
        sites.check("docs");
        assertThat(asked).as("the fresh copy is not used").hasValue(2);
        mode = Mode.DOWN;
        clock.move(Duration.ofSeconds(31));
        SiteDecision during = sites.check("docs");
        assertThat(during.verdict()).as(during.toString()).isEqualTo(Verdict.UNKNOWN);
        sync.tick();
        sync.pulled(nanos.get());
        assertThat(sites.check("docs").source()).as("in touch again").isEqualTo(Source.OUTAGE_COPY);
    }

    @Test
    void while_the_view_is_in_doubt_a_held_copy_answers_without_asking_and_a_site_never_learned_is_asked() {
        sites.check("docs");
        clock.move(Duration.ofSeconds(31)); // past freshness: it would ask
        inDoubt = true;
        SiteDecision during = sites.check("docs");
        assertThat(during.verdict()).isEqualTo(Verdict.PUBLIC);
        assertThat(during.source()).as(during.toString()).isEqualTo(Source.OUTAGE_COPY);
        assertThat(asked).as("nobody waits on a control plane in doubt").hasValue(1);
        assertThat(sites.check("leaflet").source()).as("no copy: asked all the same").isEqualTo(Source.ASKED);
        assertThat(asked).hasValue(2);
        inDoubt = false;
        assertThat(sites.check("docs").source()).isEqualTo(Source.ASKED);
    }

    @Test
    void a_site_the_api_calls_public_is_public_and_a_fresh_copy_saves_asking() {
        SiteDecision first = sites.check("docs");
        assertThat(first.verdict()).isEqualTo(Verdict.PUBLIC);
        assertThat(first.source()).isEqualTo(Source.ASKED);
        assertThat(first.accountId()).isEqualTo(42);
        clock.move(Duration.ofSeconds(10));
        SiteDecision again = sites.check("docs");
        assertThat(again.verdict()).isEqualTo(Verdict.PUBLIC);
        assertThat(again.source()).isEqualTo(Source.FRESH_COPY);
        assertThat(asked).hasValue(1);
    }

    @Test
    void during_an_outage_a_remembered_site_stays_public_for_the_access_memory_and_not_a_moment_longer() {
        sites.check("docs");
        mode = Mode.DOWN;
        clock.move(MEMORY.minusSeconds(1));
        SiteDecision during = sites.check("docs");
        assertThat(during.verdict()).isEqualTo(Verdict.PUBLIC);
        assertThat(during.source()).isEqualTo(Source.OUTAGE_COPY);
        clock.move(Duration.ofSeconds(1));
        assertThat(sites.check("docs").verdict()).as("30 minutes after the API's answer").isEqualTo(Verdict.UNKNOWN);
    }

    @Test
    void an_app_the_gate_never_learned_about_is_never_public_during_an_outage() {
        mode = Mode.DOWN;
        assertThat(sites.check("never-seen").verdict()).isEqualTo(Verdict.UNKNOWN);
        assertThat(sites.check("never-seen").isPublic()).isFalse();
    }

    @Test
    void a_private_app_stays_private_asked_fresh_or_remembered() {
        mode = Mode.PRIVATE;
        assertThat(sites.check("notes").verdict()).isEqualTo(Verdict.PRIVATE);
        mode = Mode.DOWN;
        clock.move(Duration.ofMinutes(1));
        SiteDecision during = sites.check("notes");
        assertThat(during.verdict()).isEqualTo(Verdict.PRIVATE);
        assertThat(during.source()).isEqualTo(Source.OUTAGE_COPY);
    }

    @Test
    void an_answer_replaces_the_copy_so_a_site_made_private_is_private_once_asked() {
        sites.check("docs");
        mode = Mode.PRIVATE;
        version = 2;
        clock.move(FRESH);
        assertThat(sites.check("docs").verdict()).isEqualTo(Verdict.PRIVATE);
        mode = Mode.DOWN;
        assertThat(sites.check("docs").verdict()).as("the copy is now the private answer").isEqualTo(Verdict.PRIVATE);
    }

    @Test
    void the_sharing_push_drops_the_copy_at_once_and_an_older_public_answer_is_never_used() {
        sites.check("docs");
        sites.sharingChanged("docs", 2); // the owner made it an app behind sign-in
        assertThat(sites.remembered()).isZero();
        mode = Mode.DOWN;
        assertThat(sites.check("docs").verdict()).as("no copy to stand in").isEqualTo(Verdict.UNKNOWN);
        mode = Mode.PUBLIC; // an answer to a question asked before the change, still at version 1
        assertThat(sites.check("docs").verdict()).isEqualTo(Verdict.UNKNOWN);
        version = 2;
        mode = Mode.PRIVATE;
        assertThat(sites.check("docs").verdict()).isEqualTo(Verdict.PRIVATE);
    }

    @Test
    void an_unknown_app_is_not_public_and_forgets_its_copy() {
        sites.check("docs");
        mode = Mode.GONE;
        clock.move(FRESH);
        assertThat(sites.check("docs").verdict()).isEqualTo(Verdict.PRIVATE);
        mode = Mode.DOWN;
        assertThat(sites.check("docs").verdict()).as("the deleted site's copy is gone").isEqualTo(Verdict.UNKNOWN);
    }

    @Test
    void an_answer_outside_the_contract_or_a_gate_error_is_never_public_whatever_is_remembered() {
        sites.check("docs");
        clock.move(FRESH);
        mode = Mode.ODD;
        assertThat(sites.check("docs").verdict()).isEqualTo(Verdict.UNKNOWN);
        mode = Mode.BUG;
        assertThat(sites.check("docs").verdict()).isEqualTo(Verdict.UNKNOWN);
    }

    @Test
    void a_copy_from_the_future_is_not_trusted() {
        sites.check("docs");
        clock.move(Duration.ofMinutes(-5)); // the clock was set back
        mode = Mode.DOWN;
        assertThat(sites.check("docs").verdict()).isEqualTo(Verdict.UNKNOWN);
    }

    @Test
    void a_pulled_change_already_known_keeps_the_copy_and_a_newer_one_drops_it() {
        sites.sharingChanged("docs", 2);
        version = 2;
        sites.check("docs");
        sites.pulledChange("docs", 2);
        mode = Mode.DOWN;
        clock.move(Duration.ofMinutes(1));
        assertThat(sites.check("docs").source()).isEqualTo(Source.OUTAGE_COPY);
        sites.pulledChange("docs", 3);
        assertThat(sites.check("docs").verdict()).isEqualTo(Verdict.UNKNOWN);
    }
}
