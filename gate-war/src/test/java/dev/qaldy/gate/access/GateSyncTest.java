package dev.qaldy.gate.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Reading a page of the sharing-changes feed: in order or not at all. */
class GateSyncTest {

    private static GateSync.Page read(String json, Long after) throws IOException {
        return GateSync.read(json.getBytes(StandardCharsets.UTF_8), after);
    }

    @Test
    void reads_changes_in_order_after_the_cursor() throws IOException {
        GateSync.Page page = read("{\"changes\":[{\"sequence\":5,\"app\":\"memo\",\"sharingVersion\":3},"
                + "{\"sequence\":7,\"app\":\"docs\",\"sharingVersion\":1}],\"next\":7,\"more\":true,\"gap\":false}", 4L);
        assertThat(page.changes()).containsExactly(new GateSync.Change(5, "memo", 3), new GateSync.Change(7, "docs", 1));
        assertThat(page.next()).isEqualTo(7);
        assertThat(page.more()).isTrue();
        assertThat(page.gap()).isFalse();
    }

    @Test
    void a_starting_gate_takes_the_end_and_a_gap_starts_over() throws IOException {
        assertThat(read("{\"changes\":[],\"next\":42,\"more\":false,\"gap\":false}", null).next()).isEqualTo(42);
        GateSync.Page gap = read("{\"changes\":[],\"next\":3,\"more\":false,\"gap\":true}", 90L);
        assertThat(gap.gap()).isTrue();
        assertThat(gap.next()).isEqualTo(3);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "[]", "{}", "{\"changes\":[]}", "{\"next\":5}",
        "{\"changes\":[],\"next\":3}", // behind the cursor without a gap
        "{\"changes\":[{\"sequence\":4,\"app\":\"memo\",\"sharingVersion\":1}],\"next\":4}", // not after the cursor
        "{\"changes\":[{\"sequence\":6,\"app\":\"memo\",\"sharingVersion\":1},{\"sequence\":6,\"app\":\"a\",\"sharingVersion\":1}],\"next\":6}",
        "{\"changes\":[{\"sequence\":6,\"app\":\"Memo\",\"sharingVersion\":1}],\"next\":6}",
        "{\"changes\":[{\"sequence\":6,\"app\":\"memo\",\"sharingVersion\":-1}],\"next\":6}",
        "{\"changes\":[{\"sequence\":6,\"app\":\"memo\",\"sharingVersion\":1.5}],\"next\":6}",
        "{\"changes\":[{\"sequence\":9,\"app\":\"memo\",\"sharingVersion\":1}],\"next\":8}"})
    void refuses_a_page_it_cannot_apply_in_order(String json) {
        assertThatThrownBy(() -> read(json, 4L)).isInstanceOf(IOException.class);
    }
}
