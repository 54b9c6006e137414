package dev.qaldy.gate.routing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.contract.session.Session;
import dev.qaldy.gate.access.AccessDecision;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class GateFilterTest {

    private final Session ann = new Session(7, "ann@example.com", "t1", Instant.EPOCH, Instant.EPOCH.plusSeconds(60));

    @ParameterizedTest
    @EnumSource(AccessDecision.Verdict.class)
    void everyRefusalHasItsPage(AccessDecision.Verdict verdict) {
        int status = GateFilter.refusal(new AccessDecision(verdict, AccessDecision.Source.ASKED, "test"), "guestbook", ann).status();
        switch (verdict) {
            case DENY -> assertThat(status).isEqualTo(403);
            case UNKNOWN_APP -> assertThat(status).isEqualTo(404);
            case UNAVAILABLE, ALLOW -> assertThat(status).isEqualTo(503);
            default -> throw new AssertionError(verdict);
        }
    }

    @Test
    void traceAndConnectNeverPass() {
        assertThat(GateFilter.allowedMethod("TRACE")).isFalse();
        assertThat(GateFilter.allowedMethod("connect")).isFalse();
        assertThat(GateFilter.allowedMethod("GET")).isTrue();
        assertThat(GateFilter.allowedMethod("PATCH")).isTrue();
    }
}
