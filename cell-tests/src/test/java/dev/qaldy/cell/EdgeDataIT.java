package dev.qaldy.cell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import jakarta.json.JsonObject;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 18 on a real cell: the guestbook's notes, written through {@code server.js}, are read from the
 * runtime host's replica while the control plane is SIGKILLed (with {@code X-Qaldy-Data: replica} and
 * {@code asOf}), never older than the reader's bookmark and never with a record deleted before the
 * outage, through {@code server.js} and from the app's origin ({@code /.qaldy/data/…}); signing waits (503);
 * a runtime host restarted during the outage reads its replica from disk;
 * past the replica's bound (45 s here: a runtime host restarts within it) reads are 503 again.
 */
class EdgeDataIT {

    static final String APP = "guestbook";
    static final Duration MAX_STALE = Duration.ofSeconds(45);
    static Cell cell;
    static Person owner;

    @BeforeAll
    static void startCell() throws Exception {
        cell = Cell.up("edgedata", Map.of("QALDY_NO_SEED", "1",
                "QALDY_OPTS_RUNTIME", "-Dqaldy.runtime.data-replica.max-stale=PT" + MAX_STALE.toSeconds() + "S"),
                System.getProperty("qaldy.it.server", "payara"));
        owner = Person.signUp(cell, "owner@example.com");
        owner.publish(APP, cell.root().resolve("examples/guestbook"));
        owner.openApp(APP);
    }

    @AfterAll
    static void stopCell() {
        if (cell != null) {
            cell.close();
        }
    }

    @Test
    void reads_come_from_the_replica_during_an_outage_never_older_than_the_readers_bookmark() throws Exception {
        HttpResponse<String> signed = sign("Ada", "kept at the edge", null);
        assertThat(signed.statusCode()).as(signed.body()).isEqualTo(200);
        long bookmark = bookmarkOf(signed);
        HttpResponse<String> made = owner.api("POST", "/apps/" + APP + "/data/entries",
                "{\"name\":\"Eve\",\"message\":\"deleted before the outage\",\"at\":\"2026-12-05T00:00:00Z\"}");
        assertThat(made.statusCode()).as(made.body()).isEqualTo(201);
        HttpResponse<String> deleted = owner.api("DELETE", "/apps/" + APP + "/data/entries/" + Person.json(made.body())
                .getJsonNumber("id").longValue(), null);
        assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(204);
        long afterDelete = bookmarkOf(deleted);
        assertThat(afterDelete).as("the deletion is a later change").isGreaterThan(bookmark);
        HttpResponse<String> primary = entries(bookmark);
        assertThat(primary.statusCode()).isEqualTo(200);
        assertThat(primary.headers().firstValue("X-Qaldy-Data")).as("the control plane answers while it is up").isEmpty();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> cell.dataReplicaPosition("runtime") >= afterDelete);
        Path replica = cell.var().resolve("runtime-data/replica.db");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(replica))).as("every app's data").isEqualTo("rw-------");

        cell.qaldy("stop", "control", "--kill");
        Instant killedAt = Instant.now();
        try {
            HttpResponse<String> fromReplica = entries(bookmark);
            assertThat(fromReplica.statusCode()).as(fromReplica.body()).isEqualTo(200);
            assertThat(fromReplica.body()).contains("kept at the edge").doesNotContain("deleted before the outage");
            assertThat(fromReplica.headers().firstValue("X-Qaldy-Data")).hasValue("replica");
            assertThat(fromReplica.headers().firstValue("X-Qaldy-Data-As-Of")).isPresent();
            assertThat(bookmarkOf(fromReplica)).isGreaterThanOrEqualTo(afterDelete);
            JsonObject page = Person.json(fromReplica.body());
            assertThat(Instant.parse(page.getString("asOf"))).as("when the replica last read the feed").isBefore(Instant.now());

            HttpResponse<String> origin = originRead(bookmark);
            assertThat(origin.statusCode()).as("the app's origin reads /.qaldy/data from the replica too: " + origin.body()).isEqualTo(200);
            assertThat(origin.body()).contains("kept at the edge").doesNotContain("deleted before the outage");
            assertThat(origin.headers().firstValue("X-Qaldy-Data")).hasValue("replica");
            assertThat(originRead(afterDelete + 1_000_000).statusCode()).as("never older than the bookmark").isEqualTo(503);

            HttpResponse<String> tooNew = entries(afterDelete + 1_000_000);
            assertThat(tooNew.statusCode()).as("a bookmark the replica has not reached: never an older answer").isEqualTo(503);
            assertThat(tooNew.body()).contains("The guestbook cannot read its notes right now");

            HttpResponse<String> writing = sign("Grace", "while down", bookmark);
            assertThat(writing.statusCode()).as("writes need the primary").isEqualTo(503);
            assertThat(Person.json(writing.body()).getString("type")).isEqualTo("urn:qaldy:problem:data-unavailable");

            cell.qaldy("stop", "runtime");
            cell.qaldy("start", "runtime");
            HttpResponse<String> afterRestart = entries(bookmark);
            assertThat(afterRestart.statusCode()).as("read from the replica on disk: " + afterRestart.body()).isEqualTo(200);
            assertThat(afterRestart.body()).contains("kept at the edge").doesNotContain("deleted before the outage")
                    .doesNotContain("while down");

            await().atMost(MAX_STALE.plusSeconds(30)).pollInterval(Duration.ofMillis(500))
                    .until(() -> Instant.now().isAfter(killedAt.plus(MAX_STALE).plusSeconds(1)));
            HttpResponse<String> stale = entries(bookmark);
            assertThat(stale.statusCode()).as("out of touch with the feed past its bound").isEqualTo(503);
        } finally {
            cell.startControl();
        }
        HttpResponse<String> back = entries(bookmark);
        assertThat(back.statusCode()).isEqualTo(200);
        assertThat(back.headers().firstValue("X-Qaldy-Data")).isEmpty();
        assertThat(back.body()).contains("kept at the edge").doesNotContain("while down");
    }

    private static HttpResponse<String> entries(Long bookmark) throws Exception {
        HttpRequest.Builder request = owner.browserRequest("gate", APP, "/api/entries").setHeader("Accept", "application/json");
        if (bookmark != null) {
            request.header("X-Qaldy-Data-Bookmark", Long.toString(bookmark));
        }
        return cell.send(request.GET().build());
    }

    private static HttpResponse<String> originRead(long bookmark) throws Exception {
        return cell.send(owner.browserRequest("gate", APP, "/.qaldy/data/entries?limit=100").setHeader("Accept", "application/json")
                .header("X-Qaldy-Data-Bookmark", Long.toString(bookmark)).GET().build());
    }

    private static HttpResponse<String> sign(String name, String message, Long bookmark) throws Exception {
        HttpRequest.Builder request = owner.browserRequest("gate", APP, "/api/sign").setHeader("Accept", "application/json")
                .header("Content-Type", "application/json");
        if (bookmark != null) {
            request.header("X-Qaldy-Data-Bookmark", Long.toString(bookmark));
        }
        return cell.send(request.POST(HttpRequest.BodyPublishers.ofString(
                "{\"name\":\"" + name + "\",\"message\":\"" + message + "\"}")).build());
    }

    private static long bookmarkOf(HttpResponse<String> answer) {
        return Long.parseLong(answer.headers().firstValue("X-Qaldy-Data-Bookmark")
                .orElseThrow(() -> new AssertionError("no X-Qaldy-Data-Bookmark in " + answer.headers().map())));
    }
}
