package dev.qaldy.contract.keys;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.contract.cap.MovableClock;
import java.text.MessageFormat;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RefusalTallyTest {

    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final MovableClock clock = new MovableClock(Instant.parse("2026-12-03T08:00:05Z"));
    private RefusalTally refusals;

    @BeforeEach
    void setUp() {
        Logger log = Logger.getAnonymousLogger();
        log.setUseParentHandlers(false);
        log.addHandler(new Handler() {
            @Override
            public void publish(LogRecord record) {
                lines.add(MessageFormat.format(record.getMessage(), record.getParameters()));
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        });
        refusals = new RefusalTally("gate", log, clock);
    }

    @Test
    void issue_16s_1751_refusals_from_one_address_are_two_lines_the_first_at_once_and_a_count_when_the_minute_ends() {
        assertThat(refusals.refused("a sign-out push without the service token", "6.6.6.6")).isTrue();
        assertThat(lines).hasSize(1);
        assertThat(lines.get(0)).startsWith("gate: refused a sign-out push without the service token from 6.6.6.6;");
        for (int i = 1; i < 1_751; i++) {
            clock.move(Duration.ofMillis(30));
            assertThat(refusals.refused(i % 2 == 0 ? "a sign-out push without the service token" : "a sharing push without the service token", "6.6.6.6")).isFalse();
        }
        refusals.sweep();
        assertThat(lines).as("the minute has not ended").hasSize(1);

        clock.set(Instant.parse("2026-12-03T08:01:00Z"));
        refusals.sweep();
        assertThat(lines).hasSize(2);
        assertThat(lines.get(1)).isEqualTo("gate: refused 1750 more calls from 6.6.6.6 in the minute from 2026-12-03T08:00:00Z: "
                + "a sharing push without the service token; a sign-out push without the service token");
        refusals.sweep();
        assertThat(lines).as("counted once").hasSize(2);
    }

    @Test
    void each_address_gets_its_first_line_in_each_minute_and_a_refusal_in_the_next_minute_logs_the_count_first() {
        assertThat(refusals.refused("a sharing push without the service token", "6.6.6.6")).isTrue();
        assertThat(refusals.refused("a sharing push without the service token", "7.7.7.7")).isTrue();
        assertThat(refusals.refused("a sharing push without the service token", "6.6.6.6")).isFalse();
        assertThat(refusals.refused("a sharing push without the service token", "7.7.7.7")).isFalse();
        assertThat(refusals.refused("a sharing push without the service token", "7.7.7.7")).isFalse();

        clock.move(Duration.ofSeconds(60));
        assertThat(refusals.refused("a cap-state call with the runtime-to-control credential, which is not made for it", "6.6.6.6")).as("a new minute").isTrue();
        assertThat(lines).hasSize(5);
        assertThat(lines.subList(2, 4)).containsExactlyInAnyOrder(
                "gate: refused 1 more calls from 6.6.6.6 in the minute from 2026-12-03T08:00:00Z: a sharing push without the service token",
                "gate: refused 2 more calls from 7.7.7.7 in the minute from 2026-12-03T08:00:00Z: a sharing push without the service token");
        assertThat(lines.get(4)).startsWith("gate: refused a cap-state call with the runtime-to-control credential, which is not made "
                + "for it from 6.6.6.6;");
    }

    @Test
    void a_minute_counts_at_most_max_addresses_apart_and_the_rest_together() {
        int addresses = RefusalTally.MAX_ADDRESSES * 5;
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < addresses; i++) {
                refusals.refused("a sharing push without the service token", "10." + (i >> 16 & 255) + "." + (i >> 8 & 255) + "." + (i & 255));
            }
        }
        assertThat(refusals.tracked()).as("memory is bounded").isEqualTo(RefusalTally.MAX_ADDRESSES + 1);
        assertThat(lines).as("lines at once").hasSize(RefusalTally.MAX_ADDRESSES + 1);
        assertThat(lines.get(RefusalTally.MAX_ADDRESSES)).contains("more than 1000 addresses were refused this minute");

        clock.move(Duration.ofSeconds(60));
        refusals.sweep();
        assertThat(lines).hasSize(2 * RefusalTally.MAX_ADDRESSES + 2);
        assertThat(lines).contains("gate: refused " + (3 * addresses - RefusalTally.MAX_ADDRESSES * 3 - 1)
                + " more calls from further addresses in the minute from 2026-12-03T08:00:00Z: a sharing push without the service token");
        assertThat(refusals.tracked()).isZero();
    }

    @Test
    void counts_not_logged_yet_are_logged_when_the_component_stops() {
        refusals.refused("a sharing push without the service token", "6.6.6.6");
        refusals.refused("a sharing push without the service token", "6.6.6.6");
        refusals.close();
        assertThat(lines).hasSize(2);
        assertThat(lines.get(1)).startsWith("gate: refused 1 more calls from 6.6.6.6 in the minute from");
    }
}
