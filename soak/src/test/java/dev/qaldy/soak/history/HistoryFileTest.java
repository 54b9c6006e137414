package dev.qaldy.soak.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HistoryFileTest {

    @TempDir
    Path dir;

    @Test
    void a_recorded_history_reads_back_as_it_was_written() throws IOException {
        Path file = dir.resolve("history.jsonl");
        Op op;
        try (Recorder recorder = new Recorder(7, 1000, List.of("db", "control", "gate"), true, file)) {
            op = recorder.record("viewer-1", Kind.OPEN, "gate", "a", Map.of(Facts.PERSON, "ann@soak", Facts.PATH, "/"),
                    () -> new Recorder.Answer(503, "Temporarily unavailable", Map.of("x-qaldy-access", "refused"), Map.of()));
            recorder.fault(new Fault(1, "control", FaultKind.KILL, 10, 11, 20, 25, "start exited 3: it waits for its database"));
            recorder.fault(new Fault(2, "gate", FaultKind.CUT, 30, 31, 40, 40, ""));
            recorder.run(new Run("h", 4, null, "w1", "webhook", "succeeded", -1, 30, List.of("soak-key w1-1-abc")));
            recorder.recovery(new Recovery(1, 25, Map.of("sign-in", 30L, "build", -1L), 145));
        }
        History h = HistoryFile.read(file);
        assertThat(h.seed()).isEqualTo(7);
        assertThat(h.started()).isEqualTo(1000);
        assertThat(h.components()).containsExactly("db", "control", "gate");
        assertThat(h.partitions()).isTrue();
        assertThat(h.ops()).containsExactly(op);
        assertThat(h.faults()).containsExactly(new Fault(1, "control", FaultKind.KILL, 10, 11, 20, 25,
                "start exited 3: it waits for its database"), new Fault(2, "gate", FaultKind.CUT, 30, 31, 40, 40, ""));
        assertThat(h.runs()).containsExactly(new Run("h", 4, null, "w1", "webhook", "succeeded", -1, 30, List.of("soak-key w1-1-abc")));
        assertThat(h.recoveries()).containsExactly(new Recovery(1, 25, Map.of("sign-in", 30L, "build", -1L), 145));
        assertThat(h.ended()).isGreaterThanOrEqualTo(op.end());
    }

    @Test
    void a_line_that_is_no_record_is_refused_naming_it() throws IOException {
        Path file = dir.resolve("bad.jsonl");
        Files.writeString(file, "{\"type\":\"head\",\"seed\":1,\"started\":0,\"components\":[]}\nnot json\n");
        assertThatThrownBy(() -> HistoryFile.read(file)).isInstanceOf(IOException.class).hasMessageContaining("line 2");
    }
}
