package dev.qaldy.contract.cap;

import static dev.qaldy.contract.cap.CapKeeperTest.NOW;
import static dev.qaldy.contract.cap.CapKeeperTest.sign;
import static dev.qaldy.contract.cap.CapKeeperTest.state;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.contract.cap.AccountLedger.AckedChunk;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class AccountLedgerTest {

    @Test
    void usage_sums_saturate_and_is_never_negative() {
        assertThat(new Usage(2, 3).plus(new Usage(5, 7))).isEqualTo(new Usage(7, 10));
        assertThat(new Usage(Long.MAX_VALUE - 1, 0).plus(new Usage(5, 1))).isEqualTo(new Usage(Long.MAX_VALUE, 1));
        assertThatThrownBy(() -> new Usage(-1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThat(new AckedChunk(4, new Usage(1, 2)).merge(new AckedChunk(9, new Usage(3, 4))))
                .as("included from the later sequence").isEqualTo(new AckedChunk(9, new Usage(4, 6)));
    }

    @Test
    void apps_past_the_limit_count_in_the_first_app_s_bucket() {
        AccountLedger ledger = new AccountLedger(7);
        for (int app = 0; app < AccountLedger.MAX_APPS + 5; app++) {
            ledger.count("app-" + app, 1, 2);
        }
        assertThat(ledger.open()).hasSize(AccountLedger.MAX_APPS).containsEntry("app-0", new Usage(6, 12));
        assertThat(ledger.unbilled()).isEqualTo(new Usage(AccountLedger.MAX_APPS + 5, 2L * (AccountLedger.MAX_APPS + 5)));
    }

    @Test
    void acknowledged_chunks_past_the_limit_merge_and_none_is_lost() {
        AccountLedger ledger = new AccountLedger(7);
        ledger.take(sign(state(1, "2026-03", 100, 0, NOW)), state(1, "2026-03", 100, 0, NOW));
        for (int batch = 0; batch < AccountLedger.MAX_ACKED_CHUNKS + 1; batch++) {
            UUID id = UUID.randomUUID();
            ledger.count("guestbook", 1, 0);
            assertThat(ledger.seal(id)).isTrue();
            ledger.acknowledge(id, 10L + batch);
        }
        assertThat(ledger.acked()).hasSize(AccountLedger.MAX_ACKED_CHUNKS)
                .first().isEqualTo(new AckedChunk(11, new Usage(2, 0)));
        assertThat(ledger.unbilled()).isEqualTo(new Usage(AccountLedger.MAX_ACKED_CHUNKS + 1, 0));
        assertThat(ledger.unbilledMillicents()).isEqualTo((AccountLedger.MAX_ACKED_CHUNKS + 1) * CapKeeperTest.PRICES.requestMillicents());
    }
}
