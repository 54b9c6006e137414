package dev.qaldy.drill.cell;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class SeenTest {

    @Test
    void a_problem_reads_as_its_title_and_detail() {
        assertThat(Seen.messageOf("application/problem+json",
                "{\"type\":\"x\",\"title\":\"Temporarily unavailable\",\"status\":503,\"detail\":\"Try \\\"again\\\" later.\"}"))
                .isEqualTo("Temporarily unavailable: Try \"again\" later.");
    }

    @Test
    void a_page_reads_as_its_heading_and_first_paragraph_without_tags() {
        assertThat(Seen.messageOf("text/html; charset=utf-8",
                "<html><h1>Temporarily   unavailable</h1><p>People who <em>already</em> opened it keep it.</p><p>more</p>"))
                .isEqualTo("Temporarily unavailable — People who already opened it keep it.");
    }

    @Test
    void long_text_is_cut_at_200_characters() {
        assertThat(Seen.messageOf("text/plain", "x".repeat(500))).hasSize(200).endsWith("…");
    }

    @Test
    void the_summary_says_status_message_time_and_how_the_gate_decided() {
        Seen seen = new Seen(200, "Guestbook", 12, Map.of("x-qaldy-access", "outage-copy"), "");
        assertThat(seen.summary()).isEqualTo("200 “Guestbook” in 12 ms, access outage-copy");
        assertThat(Seen.noAnswer("ConnectException", 3).summary()).isEqualTo("no answer “ConnectException” in 3 ms");
    }
}
