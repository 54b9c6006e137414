package dev.qaldy.gate.routing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.contract.session.Session;
import dev.qaldy.gate.access.AccessDecision;
import dev.qaldy.gate.platform.Page;
import dev.qaldy.gate.platform.Pages;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class GateFilterTest {

    private final Session ann = new Session(7, "ann@example.com", "t1", Instant.EPOCH, Instant.EPOCH.plusSeconds(60));

    @ParameterizedTest
    @EnumSource(AccessDecision.Verdict.class)
    void everyRefusalHasItsPage(AccessDecision.Verdict verdict) {
        int status = GateFilter.refusal(new AccessDecision(verdict, AccessDecision.Source.ASKED, "test"), "guestbook", ann, "/console/").status();
        switch (verdict) {
            case DENY -> assertThat(status).isEqualTo(403);
            case UNKNOWN_APP -> assertThat(status).isEqualTo(404);
            case UNAVAILABLE, ALLOW -> assertThat(status).isEqualTo(503);
            default -> throw new AssertionError(verdict);
        }
    }

    @Test
    void signingInIsPausedWhileTheControlPlaneIsFailingOrTheAppCannotBeToldPublic() {
        assertThat(GateFilter.signInPaused(false, false, true)).as("the API is up: ask to sign in").isNull();
        assertThat(GateFilter.signInPaused(false, false, false)).isNull();
        assertThat(GateFilter.signInPaused(false, true, false)).as("a script keeps its 401: its token is no good").isNull();
        for (boolean[] when : new boolean[][] {{true, false, false}, {true, false, true}, {false, true, true}, {true, true, true}}) {
            Page page = GateFilter.signInPaused(when[0], when[1], when[2]);
            assertThat(page.status()).isEqualTo(503);
            assertThat(page.sentence()).isEqualTo("Signing in is paused for a moment. If you already use this app, it keeps working.");
            assertThat(Pages.html(page)).contains("Temporarily unavailable").doesNotContainIgnoringCase("control plane");
        }
    }

    @Test
    void aGateOutOfTouchTellsNobodyTheyKeepAccess() {
        Page page = GateFilter.refusal(new AccessDecision(AccessDecision.Verdict.UNAVAILABLE, AccessDecision.Source.OUT_OF_TOUCH, "t"),
                "guestbook", ann, "/console/");
        assertThat(page.status()).isEqualTo(503);
        assertThat(page.sentence()).isEqualTo("Qaldy can't confirm who may open this app right now. Please try again in a minute.");
        assertThat(Pages.html(page)).contains("Temporarily unavailable").doesNotContain("keeps working");
        assertThat(GateFilter.refusal(new AccessDecision(AccessDecision.Verdict.UNAVAILABLE, AccessDecision.Source.ASKED, "t"),
                "guestbook", ann, "/console/").sentence()).contains("If you already use this app, it keeps working.");
    }

    @Test
    void onlyThePostOfASessionIsTheConsolesSignIn() {
        assertThat(GateFilter.isSignIn("POST", "/api/v1/sessions")).isTrue();
        assertThat(GateFilter.isSignIn("GET", "/api/v1/sessions")).isFalse();
        assertThat(GateFilter.isSignIn("POST", "/api/v1/people")).isFalse();
        assertThat(GateFilter.isSignIn("DELETE", "/api/v1/sessions/current")).isFalse();
    }

    @Test
    void theUnknownAppPageLinksHome() {
        Page page = GateFilter.refusal(new AccessDecision(AccessDecision.Verdict.UNKNOWN_APP, AccessDecision.Source.ASKED, "t"),
                "nosuch", ann, "http://localhost:8080/console/");
        assertThat(page.linkHref()).isEqualTo("http://localhost:8080/console/");
        assertThat(page.sentence()).startsWith("There is no app called nosuch here. ");
        assertThat(Pages.html(page)).doesNotContain("Try again");
    }

    @Test
    void traceAndConnectNeverPass() {
        assertThat(GateFilter.allowedMethod("TRACE")).isFalse();
        assertThat(GateFilter.allowedMethod("connect")).isFalse();
        assertThat(GateFilter.allowedMethod("GET")).isTrue();
        assertThat(GateFilter.allowedMethod("PATCH")).isTrue();
    }
}
