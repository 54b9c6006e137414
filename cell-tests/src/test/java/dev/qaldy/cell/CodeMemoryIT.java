package dev.qaldy.cell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Issue 4 on a real cell: the runtime host remembers an app's code in memory and in a sealed copy
 * in the data-centre cache, reads the copy only when the API cannot be asked, and never serves a
 * copy that does not verify, nor an older live record written back into the cache (issue 16).
 * Freshness windows are shortened to 1 s through config.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CodeMemoryIT {

    static Cell cell;
    static Person owner;

    @BeforeAll
    static void startCell() throws Exception {
        cell = Cell.up("code", Map.of(
                "QALDY_NO_SEED", "1",
                "QALDY_OPTS_GATE", "-Dqaldy.gate.access-freshness=PT1S",
                "QALDY_OPTS_RUNTIME", "-Dqaldy.runtime.live-freshness=PT1S"));
        owner = Person.signUp(cell, "coder@example.com");
        owner.publish("notes", cell.root().resolve("examples/guestbook"));
        owner.openApp("notes");
    }

    @AfterAll
    static void stopCell() {
        if (cell != null) {
            cell.close();
        }
    }

    @Test
    @Order(1)
    void a_runtime_host_restarted_during_an_outage_serves_the_app_from_the_sealed_copy() throws Exception {
        HttpResponse<String> page = owner.get("notes", "/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("X-Qaldy-Code")).hasValue("api");
        String etag = page.headers().firstValue("ETag").orElseThrow();
        assertThat(copies("notes", ".bundle")).hasSize(1);

        cell.qaldy("stop", "control", "--kill");
        try {
            cell.qaldy("stop", "runtime");
            cell.qaldy("start", "runtime");
            HttpResponse<String> fromCopy = owner.get("notes", "/");
            assertThat(fromCopy.statusCode()).as(fromCopy.body()).isEqualTo(200);
            assertThat(fromCopy.headers().firstValue("X-Qaldy-Code")).hasValue("dc-copy");
            assertThat(fromCopy.headers().firstValue("ETag")).hasValue(etag);
            assertThat(fromCopy.body()).isEqualTo(page.body());
            // The code runs from the copy; the guestbook's notes come from the runtime host's replica, kept on disk (issue 18).
            HttpResponse<String> handler = owner.postJson("notes", "/api/sign", "{\"name\":\"\",\"message\":\"still here\"}");
            assertThat(handler.statusCode()).as("the handler's own validation answers").isEqualTo(400);
            assertThat(handler.body()).contains("Your name must be 1 to 80 characters.");
            HttpResponse<String> reading = cell.send(owner.browserRequest("gate", "notes", "/api/entries")
                    .setHeader("Accept", "application/json").GET().build());
            assertThat(reading.statusCode()).as(reading.body()).isEqualTo(200);
            assertThat(reading.headers().firstValue("X-Qaldy-Data")).as("read from the replica the restarted host kept").hasValue("replica");
            assertThat(Person.json(reading.body()).getString("asOf")).isNotBlank();
            HttpResponse<String> neverServed = owner.get("notes", "/style-never-served.css");
            assertThat(neverServed.statusCode()).as("a file never served here needs the API").isEqualTo(503);
        } finally {
            cell.startControl(); // later tests call the API through the gate at once
        }
    }

    @Test
    @Order(2)
    void a_tampered_copy_is_refused_and_deleted_and_the_app_gets_503_never_the_tampered_code() throws Exception {
        assertThat(owner.get("notes", "/").statusCode()).isEqualTo(200);
        Path copy = copies("notes", ".bundle").get(0);
        cell.qaldy("stop", "control", "--kill");
        try {
            byte[] bytes = Files.readAllBytes(copy);
            bytes[bytes.length - 10] ^= 0x01;
            Files.write(copy, bytes);
            cell.qaldy("stop", "runtime");
            cell.qaldy("start", "runtime");
            HttpResponse<String> refused = owner.get("notes", "/");
            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(refused.body()).doesNotContain("Guestbook");
            assertThat(copy).doesNotExist();
        } finally {
            cell.startControl(); // later tests call the API through the gate at once
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> owner.get("notes", "/").statusCode() == 200);
        assertThat(copies("notes", ".bundle")).as("the copy is written again once the API answers").hasSize(1);
    }

    @Test
    @Order(3)
    void a_promoted_version_is_served_within_the_freshness_window_and_through_an_outage() throws Exception {
        Path source = Files.createTempDirectory(cell.var(), "notes-v2");
        copyTree(cell.root().resolve("examples/guestbook"), source);
        Path index = source.resolve("public/index.html");
        Files.writeString(index, Files.readString(index).replace("</body>", "<p id=\"v2\">Version two</p></body>"));
        long v2 = owner.build("notes", Person.zip(source, "notes"));
        assertThat(owner.api("PUT", "/apps/notes/live", "{\"version\":" + v2 + "}").statusCode()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(10)).until(() -> owner.get("notes", "/").body().contains("Version two"));

        cell.qaldy("stop", "control", "--kill");
        try {
            Thread.sleep(1_500);
            HttpResponse<String> during = owner.get("notes", "/");
            assertThat(during.statusCode()).isEqualTo(200);
            assertThat(during.body()).contains("Version two");
            assertThat(during.headers().firstValue("X-Qaldy-Code")).hasValue("memory");
        } finally {
            cell.startControl(); // later tests call the API through the gate at once
        }
    }

    @Test
    @Order(4)
    void a_deleted_app_cannot_come_back_from_a_copy_while_the_api_answers() throws Exception {
        // After the last test's outage the gate may still see the control plane failing for a moment (the
        // first calls to a control plane that just started can time out): wait until the gate asks again.
        await().atMost(Duration.ofSeconds(45)).pollInterval(Duration.ofMillis(1_100)).until(() -> {
            HttpResponse<String> page = owner.get("notes", "/");
            return page.statusCode() == 200 && "asked".equals(page.headers().firstValue("X-Qaldy-Access").orElse(""));
        });
        assertThat(copies("notes", ".bundle")).isNotEmpty();
        assertThat(owner.api("DELETE", "/apps/notes", null).statusCode()).isEqualTo(204);

        HttpResponse<String> viaGate = owner.get("notes", "/");
        assertThat(viaGate.statusCode()).as("the deletion's push cleared the gate's copy: asked, 404").isEqualTo(404);
        Thread.sleep(1_500); // past the runtime host's live freshness (1 s here): it asks the API again
        HttpResponse<String> atRuntime = runtimeDirect("notes", "/");
        assertThat(atRuntime.statusCode()).as("the runtime host asks first, even holding a copy").isEqualTo(404);
        assertThat(copies("notes", ".bundle")).as("the copy files are gone").isEmpty();
    }

    @Test
    @Order(5)
    void traversal_paths_are_refused() throws Exception {
        Person other = Person.signUp(cell, "paths@example.com");
        other.publish("paths", cell.root().resolve("examples/guestbook"));
        other.openApp("paths");
        for (String path : new String[] {"/../qaldy.json", "/%2e%2e/server.js", "/..%5cserver.js", "/a/%2E%2E/%2E%2E/server.js"}) {
            int status = other.get("paths", path).statusCode();
            assertThat(status).as(path).isEqualTo(400);
        }
        assertThat(other.get("paths", "/server.js").statusCode()).as("only public/ is served").isEqualTo(404);
    }

    /**
     * Found by the soak (issue 14; seed 7, a control plane started while its database was down):
     * a control plane whose application is not deployed yet answers every path with its server's
     * own 404 page (Payara Micro opens its port a minute or two before the WAR serves, on a loaded
     * machine or with the database down), and the runtime host took that for "nothing published":
     * people the gate let in from its copy got 404 "No such app or nothing published yet". A
     * stand-in on the control plane's port answers as that server does (Grizzly's text/html 404)
     * while the real one is stopped; the app must be served from the runtime host's memory all along.
     */
    @Test
    @Order(6)
    void a_control_plane_whose_application_is_not_serving_is_a_failure_never_nothing_published() throws Exception {
        Person person = Person.signUp(cell, "stand-in@example.com");
        person.publish("stand", cell.root().resolve("examples/guestbook"));
        person.openApp("stand");
        await().atMost(Duration.ofSeconds(45)).pollInterval(Duration.ofMillis(1_100))
                .until(() -> person.get("stand", "/").statusCode() == 200);
        cell.qaldy("stop", "control");
        com.sun.net.httpserver.HttpServer standIn = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", cell.port("control")), 0);
        standIn.createContext("/", exchange -> {
            byte[] page = ("<html><head><title>Payara Micro #badassfish - Error report</title></head><body>"
                    + "<h1>HTTP Status 404 - Not Found</h1><hr/><p><b>type</b> Status report</p></body></html>")
                    .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
            exchange.getResponseHeaders().set("Content-Type", "text/html;charset=ISO-8859-1");
            exchange.sendResponseHeaders(404, page.length);
            exchange.getResponseBody().write(page);
            exchange.close();
        });
        standIn.start();
        try {
            // Past the runtime host's live freshness (1 s here), every answer is the page, from its memory.
            await().during(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(500))
                    .untilAsserted(() -> {
                        HttpResponse<String> seen = person.get("stand", "/");
                        assertThat(seen.statusCode()).as(seen.headers().map() + " " + seen.body()).isEqualTo(200);
                    });
            HttpResponse<String> page = person.get("stand", "/");
            assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
            assertThat(page.headers().firstValue("X-Qaldy-Access")).hasValue("outage-copy");
            assertThat(page.headers().firstValue("X-Qaldy-Code")).hasValue("memory");
        } finally {
            standIn.stop(0);
            cell.startControl(); // later tests call the API through the gate at once
        }
    }

    /**
     * Issue 16, item 4: whoever can write the shared data-centre cache puts an older sealed live
     * record back during an outage, and a runtime host restarted then must not roll the app back.
     * Its highest live-clock sequence per app is kept outside the cache, so v1's record, signed
     * before v2 went live, is refused: the person gets a calm 503 (or v2), never v1.
     */
    @Test
    @Order(7)
    void an_older_live_record_written_back_into_the_cache_during_an_outage_never_rolls_the_app_back() throws Exception {
        Person person = Person.signUp(cell, "rollback@example.com");
        person.publish("rolled", cell.root().resolve("examples/guestbook"));
        person.openApp("rolled");
        await().atMost(Duration.ofSeconds(45)).pollInterval(Duration.ofMillis(1_100))
                .until(() -> person.get("rolled", "/").statusCode() == 200);
        Path record = cell.var().resolve("dc-cache/rolled.live");
        byte[] v1Record = Files.readAllBytes(record);
        assertThat(new String(v1Record, java.nio.charset.StandardCharsets.UTF_8)).contains("\"record\"");

        Path source = Files.createTempDirectory(cell.var(), "rolled-v2");
        copyTree(cell.root().resolve("examples/guestbook"), source);
        Path index = source.resolve("public/index.html");
        Files.writeString(index, Files.readString(index).replace("</body>", "<p id=\"v2\">Version two</p></body>"));
        long v2 = person.build("rolled", Person.zip(source, "rolled"));
        assertThat(person.api("PUT", "/apps/rolled/live", "{\"version\":" + v2 + "}").statusCode()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(10)).until(() -> person.get("rolled", "/").body().contains("Version two"));
        assertThat(Files.readAllBytes(record)).as("the runtime host wrote v2's record").isNotEqualTo(v1Record);

        cell.qaldy("stop", "control", "--kill");
        try {
            Files.write(record, v1Record);
            cell.qaldy("stop", "runtime");
            cell.qaldy("start", "runtime");
            for (int i = 0; i < 3; i++) {
                HttpResponse<String> page = person.get("rolled", "/");
                assertThat(page.statusCode()).as(page.body()).isIn(200, 503);
                if (page.statusCode() == 200) {
                    assertThat(page.body()).as("v2 only").contains("Version two");
                } else {
                    assertThat(page.body()).as("a calm 503, not v1").doesNotContain("Guestbook");
                }
            }
            assertThat(record).as("the older record was refused and deleted").doesNotExist();
        } finally {
            cell.startControl(); // later tests call the API through the gate at once
        }
    }

    /** A request straight to the runtime host, as the gate would send it (service token, app header). */
    static HttpResponse<String> runtimeDirect(String app, String path) throws Exception {
        String token = cell.credential("gate-to-runtime");
        return cell.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + cell.port("runtime") + path))
                .header("X-Qaldy-Service-Token", token).header("X-Qaldy-App", app)
                .header("X-Qaldy-Person-Email", owner.email).GET().build());
    }

    static java.util.List<Path> copies(String app, String suffix) throws Exception {
        Path dir = cell.var().resolve("dc-cache");
        if (!Files.isDirectory(dir)) {
            return java.util.List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().startsWith(app + ".")
                    && p.getFileName().toString().endsWith(suffix)).toList();
        }
    }

    static void copyTree(Path from, Path to) throws Exception {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path p : files.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }
}
