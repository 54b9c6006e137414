package dev.qaldy.control.platform.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;
import java.sql.SQLNonTransientConnectionException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/** An outage of the database is said once when it begins and once when it ends, however many calls fail meanwhile. */
class DatabaseOutageTest {

    final List<LogRecord> records = new ArrayList<>();
    final Logger log = Logger.getLogger("DatabaseOutageTest." + System.nanoTime());
    Instant now = Instant.parse("2026-12-05T08:00:00Z");
    final DatabaseOutage outage = new DatabaseOutage(log, new Clock() {
        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    });

    {
        log.setUseParentHandlers(false);
        log.setLevel(Level.ALL);
        log.addHandler(new Handler() {
            @Override
            public void publish(LogRecord record) {
                records.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        });
    }

    @Test
    void one_warning_when_it_begins_one_info_when_it_ends_and_the_calls_between_at_fine() {
        outage.answered();
        assertThat(records).as("no outage, nothing to say").isEmpty();
        RuntimeException refused = new RuntimeException("Exception [EclipseLink-4002] " + "x".repeat(20_000),
                new SQLNonTransientConnectionException("Connection is broken", "90067", new ConnectException("Connection refused")));
        for (int i = 0; i < 50; i++) {
            outage.lost(refused);
        }
        assertThat(outage.ongoing()).isTrue();
        now = now.plusSeconds(91);
        outage.answered();
        outage.answered();
        assertThat(outage.ongoing()).isFalse();

        List<LogRecord> shown = records.stream().filter(r -> r.getLevel().intValue() >= Level.INFO.intValue()).toList();
        assertThat(shown).hasSize(2);
        assertThat(shown.get(0).getLevel()).isEqualTo(Level.WARNING);
        String cause = (String) shown.get(0).getParameters()[0];
        assertThat(cause).isEqualTo("java.net.ConnectException: Connection refused").hasSizeLessThanOrEqualTo(DatabaseOutage.CAUSE_CHARS + 1);
        assertThat(shown.get(1).getLevel()).isEqualTo(Level.INFO);
        assertThat(shown.get(1).getParameters()).containsExactly(91L, 50L);
        assertThat(records).filteredOn(r -> r.getLevel() == Level.FINE).hasSize(49);
    }

    @Test
    void a_long_cause_is_cut_to_one_short_line() {
        assertThat(DatabaseOutage.cause(new IllegalStateException("a\n b " + "y".repeat(1_000))))
                .startsWith("java.lang.IllegalStateException: a b yyy").hasSize(DatabaseOutage.CAUSE_CHARS + 1).doesNotContain("\n");
    }
}
