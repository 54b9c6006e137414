package dev.qaldy.contract.data;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.contract.keys.ServiceCredential;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Issue 16: a grant opens one app's data for a bounded time, and only the gate and the control plane can make one. */
class DataGrantsTest {

    static final Instant NOW = Instant.parse("2026-12-03T10:00:00Z");
    final DataGrants grants = new DataGrants(ServiceCredential.of("g".repeat(32), "test"));

    @Test
    void a_grant_opens_its_own_app_until_it_expires() {
        String board = grants.issue("board", NOW);
        assertThat(grants.allows("board", board, NOW)).isTrue();
        assertThat(grants.allows("board", board, NOW.plus(DataGrants.TTL).minusSeconds(1))).isTrue();
        assertThat(grants.allows("board", board, NOW.plus(DataGrants.TTL))).as("expired").isFalse();
        assertThat(grants.allows("guestbook", board, NOW)).as("another app").isFalse();
        assertThat(grants.allows("board2", board, NOW)).isFalse();
    }

    @Test
    void a_grant_of_another_key_a_forged_expiry_or_garbage_opens_nothing() {
        String board = grants.issue("board", NOW);
        DataGrants other = new DataGrants(ServiceCredential.of("r".repeat(32), "runtime's own"));
        assertThat(other.allows("board", board, NOW)).isFalse();
        assertThat(grants.allows("board", other.issue("board", NOW), NOW)).isFalse();

        String[] parts = board.split("\\.");
        long later = Long.parseLong(parts[1]) + 60;
        assertThat(grants.allows("board", "v1." + later + "." + parts[2], NOW)).as("expiry moved").isFalse();
        String farAhead = grants.issue("board", NOW.plus(DataGrants.TTL));
        assertThat(grants.allows("board", farAhead, NOW)).as("expires further ahead than a grant may live").isFalse();
        for (String bad : new String[] {null, "", "v1.", "v1.x.ab", "v2." + parts[1] + "." + parts[2], board + "00", "v1." + "9".repeat(200)}) {
            assertThat(grants.allows("board", bad, NOW)).as(String.valueOf(bad)).isFalse();
        }
        assertThat(board).doesNotContain("g".repeat(16));
    }

    @Test
    void the_current_grant_is_kept_for_a_minute_and_then_made_again() {
        String first = grants.current("board", NOW);
        assertThat(grants.current("board", NOW.plusSeconds(59))).isEqualTo(first);
        String next = grants.current("board", NOW.plus(DataGrants.REISSUE_AFTER));
        assertThat(next).isNotEqualTo(first);
        assertThat(grants.allows("board", next, NOW.plus(DataGrants.TTL))).as("still four minutes to live").isTrue();
    }
}
