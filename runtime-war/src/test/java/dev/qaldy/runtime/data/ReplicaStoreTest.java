package dev.qaldy.runtime.data;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.contract.data.DataChange;
import dev.qaldy.runtime.data.control.ReplicaStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The replica's rules on a real SQLite file (issue 18): newer wins, deleted stays deleted, bounds drop whole apps. */
class ReplicaStoreTest {

    static DataChange record(long seq, String app, long id, String text) {
        return DataChange.record(seq, app, "notes", id, "{\"text\":\"" + text + "\"}", "ada@example.com", 1_000, 2_000);
    }

    @Test
    void a_change_is_taken_only_when_newer_than_what_is_held_and_a_deleted_record_never_comes_back(@TempDir Path dir) throws Exception {
        try (ReplicaStore store = new ReplicaStore(dir.resolve("r/replica.db"), 100, 10)) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("r/replica.db")))).isEqualTo("rw-------");
            assertThat(store.feed()).containsExactly(0, 0);
            store.takeFeed(List.of(record(1, "memo", 7, "one"), record(3, "memo", 7, "three"), record(2, "memo", 7, "two (late)")), 3, 0, 10);
            assertThat(store.get("memo", "notes", 7).orElseThrow().body()).contains("three");
            assertThat(store.feed()).as("not read to the end yet: no contact").containsExactly(3, 0);

            store.takeFeed(List.of(DataChange.deleted(4, "memo", "notes", 7)), 4, 50, 50);
            assertThat(store.get("memo", "notes", 7)).isEmpty();
            assertThat(store.feed()).containsExactly(4, 50);

            // A fill reading apart from the whole feed brings an older state late: never taken.
            store.startFill("other", 60);
            store.takeFill("other", List.of(record(5, "other", 9, "kept")), false, 0);
            store.takeFeed(List.of(DataChange.deleted(6, "other", "notes", 9)), 6, 70, 70);
            store.takeFill("other", List.of(record(5, "other", 9, "kept (late)")), true, 6);
            assertThat(store.get("other", "notes", 9)).as("deleted at 6, the fill's 5 is older").isEmpty();
            assertThat(store.app("other").orElseThrow().position()).isEqualTo(6);
        }
    }

    @Test
    void an_apps_deletion_drops_its_records_and_older_changes_of_it(@TempDir Path dir) throws Exception {
        try (ReplicaStore store = new ReplicaStore(dir.resolve("replica.db"), 100, 10)) {
            store.takeFeed(List.of(record(1, "memo", 1, "a"), record(2, "memo", 2, "b"), DataChange.appDeleted(3, "memo")), 3, 10, 10);
            assertThat(store.list("memo", "notes", 20, null, false)).isEmpty();
            assertThat(store.app("memo").orElseThrow().records()).isZero();
            store.takeFeed(List.of(record(4, "memo", 5, "a new app of that name")), 4, 20, 20);
            assertThat(store.list("memo", "notes", 20, null, false)).extracting(ReplicaStore.Row::id).containsExactly(5L);
        }
    }

    @Test
    void pages_are_the_data_apis_both_ways(@TempDir Path dir) throws Exception {
        try (ReplicaStore store = new ReplicaStore(dir.resolve("replica.db"), 100, 10)) {
            store.takeFeed(List.of(record(1, "memo", 1, "a"), record(2, "memo", 2, "b"), record(3, "memo", 3, "c")), 3, 10, 10);
            assertThat(store.list("memo", "notes", 2, null, false)).extracting(ReplicaStore.Row::id).containsExactly(1L, 2L);
            assertThat(store.list("memo", "notes", 2, 2L, false)).extracting(ReplicaStore.Row::id).containsExactly(3L);
            assertThat(store.list("memo", "notes", 2, null, true)).extracting(ReplicaStore.Row::id).containsExactly(3L, 2L);
            assertThat(store.list("memo", "other", 2, null, true)).isEmpty();
        }
    }

    @Test
    void an_app_past_its_bound_and_the_least_recently_read_past_the_apps_bound_are_dropped(@TempDir Path dir) throws Exception {
        try (ReplicaStore store = new ReplicaStore(dir.resolve("replica.db"), 2, 2)) {
            store.takeFeed(List.of(record(1, "big", 1, "a"), record(2, "big", 2, "b"), record(3, "big", 3, "c")), 3, 10, 10);
            assertThat(store.app("big").orElseThrow().state()).as("over 2 records: dropped, never half answered").isZero();
            assertThat(store.list("big", "notes", 20, null, false)).isEmpty();
            store.takeFeed(List.of(record(4, "big", 4, "d")), 4, 11, 11);
            assertThat(store.list("big", "notes", 20, null, false)).as("a dropped app's changes are not taken").isEmpty();

            store.takeFeed(List.of(record(5, "one", 1, "a")), 5, 20, 20);
            store.used("one", 40);
            store.takeFeed(List.of(record(6, "two", 1, "a")), 6, 30, 30);
            store.takeFeed(List.of(record(7, "three", 1, "a")), 7, 50, 50);
            assertThat(store.app("two").orElseThrow().state()).as("the least recently read of the kept ones").isZero();
            assertThat(store.app("one").orElseThrow().state()).isEqualTo(2);
            assertThat(store.app("three").orElseThrow().state()).isEqualTo(2);
        }
    }

    @Test
    void what_was_taken_is_there_after_the_file_is_opened_again(@TempDir Path dir) throws Exception {
        try (ReplicaStore store = new ReplicaStore(dir.resolve("replica.db"), 100, 10)) {
            store.takeFeed(List.of(record(1, "memo", 1, "kept")), 1, 10, 10);
        }
        try (ReplicaStore store = new ReplicaStore(dir.resolve("replica.db"), 100, 10)) {
            assertThat(store.feed()).containsExactly(1, 10);
            assertThat(store.get("memo", "notes", 1).orElseThrow().body()).contains("kept");
        }
    }
}
