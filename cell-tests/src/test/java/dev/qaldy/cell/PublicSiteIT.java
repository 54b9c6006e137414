package dev.qaldy.cell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Public sites on a real cell with two runtime hosts sharing one data-centre cache (seed: "Sites.
 * Pages already served still load; a file that this data centre never served before needs the
 * API"). Anyone opens a site without signing in; during an outage the pages already served keep
 * loading, a page never served and a site the gate never learned about get 503; making a site
 * private takes effect at once; a second runtime host restarted during an outage serves what the
 * first served from the sealed shared copy, refuses a copy whose seal was tampered with, and a
 * deleted site does not come back while the API answers. Freshness windows are 1 s here.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PublicSiteIT {

    static Cell cell;
    static Person owner;
    static Path source;

    @BeforeAll
    static void startCell() throws Exception {
        cell = Cell.upWithTwoRuntimeHosts("sites", Map.of(
                "QALDY_NO_SEED", "1",
                "QALDY_OPTS_GATE", "-Dqaldy.gate.access-freshness=PT1S",
                "QALDY_OPTS_RUNTIME", "-Dqaldy.runtime.live-freshness=PT1S"));
        owner = Person.signUp(cell, "publisher@example.com");
        source = Files.createTempDirectory(cell.var(), "leaflet");
        Files.createDirectories(source.resolve("public"));
        Files.writeString(source.resolve("qaldy.json"), "{\"name\":\"leaflet\",\"kind\":\"site\"}");
        for (String page : List.of("index", "about", "contact")) {
            Files.writeString(source.resolve("public/" + page + ".html"),
                    "<!doctype html><title>" + page + "</title><h1>Leaflet: " + page + "</h1>");
        }
        HttpResponse<String> created = owner.api("POST", "/apps", "{\"name\":\"leaflet\",\"kind\":\"site\"}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        assertThat(Person.json(created.body()).getString("kind")).isEqualTo("site");
        owner.publish("leaflet", source);
    }

    @AfterAll
    static void stopCell() {
        if (cell != null) {
            cell.close();
        }
    }

    @Test
    @Order(1)
    void anyone_opens_a_site_without_signing_in_and_the_api_and_audit_log_show_its_kind() throws Exception {
        HttpResponse<String> page = visitor("leaflet", "/");
        assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
        assertThat(page.body()).contains("Leaflet: index");
        assertThat(page.headers().firstValue("X-Qaldy-Access")).hasValue("public");
        assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
        assertThat(Person.json(owner.api("GET", "/apps/leaflet", null).body()).getString("kind")).isEqualTo("site");
        assertThat(owner.api("GET", "/audit?limit=50", null).body()).contains("\"action\":\"app.kind\"");

        owner.publish("notes", cell.root().resolve("examples/guestbook"));
        HttpResponse<String> privateApp = visitor("notes", "/");
        assertThat(privateApp.statusCode()).as("an app is still behind sign-in").isEqualTo(302);
        assertThat(privateApp.body()).doesNotContain("Guestbook");
    }

    @Test
    @Order(2)
    void pages_already_served_keep_loading_through_an_outage_and_others_need_the_api() throws Exception {
        HttpResponse<String> index = visitor("leaflet", "/");
        HttpResponse<String> about = visitor("leaflet", "/about.html");
        assertThat(about.statusCode()).isEqualTo(200);
        // A second site this gate never opened: it cannot know that it is public.
        HttpResponse<String> created = owner.api("POST", "/apps", "{\"name\":\"pamphlet\",\"kind\":\"site\"}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);

        cell.qaldy("stop", "control", "--kill");
        try {
            Thread.sleep(1_500); // past both freshness windows: the gate and the runtime host must ask, and cannot
            for (HttpResponse<String> before : List.of(index, about)) {
                String path = before.uri().getRawPath();
                HttpResponse<String> during = visitor("leaflet", path);
                assertThat(during.statusCode()).as(path + ": " + during.body()).isEqualTo(200);
                assertThat(during.body()).isEqualTo(before.body());
                assertThat(during.headers().firstValue("ETag")).isEqualTo(before.headers().firstValue("ETag"));
                assertThat(during.headers().firstValue("X-Qaldy-Site")).hasValue("outage-copy");
                assertThat(during.headers().firstValue("X-Qaldy-Code")).hasValue("memory");
            }
            HttpResponse<String> neverServed = visitor("leaflet", "/contact.html");
            assertThat(neverServed.statusCode()).as("a page this data centre never served needs the API").isEqualTo(503);
            assertThat(neverServed.body()).contains("Temporarily unavailable").doesNotContain("Leaflet: contact");
            assertThat(neverServed.headers().firstValue("Retry-After")).isPresent();
            HttpResponse<String> neverLearned = visitor("pamphlet", "/");
            assertThat(neverLearned.statusCode()).as("never treat unknown as public").isEqualTo(503);
            assertThat(neverLearned.headers().firstValue("X-Qaldy-Access")).hasValue("refused");
        } finally {
            cell.startControl();
        }
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> visitor("leaflet", "/contact.html").statusCode() == 200);
        assertThat(visitor("leaflet", "/contact.html").body()).contains("Leaflet: contact");
    }

    @Test
    @Order(3)
    void a_site_made_private_needs_sign_in_at_once_and_through_an_outage() throws Exception {
        awaitTheGateAsks("leaflet"); // after the last outage the gate may still see the control plane failing a moment
        HttpResponse<String> changed = owner.api("PUT", "/apps/leaflet/kind", "{\"kind\":\"app\"}");
        assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
        assertThat(Person.json(changed.body()).getString("kind")).isEqualTo("app");
        HttpResponse<String> now = visitor("leaflet", "/");
        assertThat(now.statusCode()).as("the change reached the gate before the API answered it").isEqualTo(302);
        assertThat(owner.api("PUT", "/apps/leaflet/kind", "{\"kind\":\"everyone\"}").statusCode()).isEqualTo(400);

        cell.qaldy("stop", "control", "--kill");
        try {
            Thread.sleep(1_500);
            HttpResponse<String> during = visitor("leaflet", "/");
            assertThat(during.statusCode()).as("private stays private without the API").isIn(302, 503);
            assertThat(during.body()).doesNotContain("Leaflet");
        } finally {
            cell.startControl();
        }
        HttpResponse<String> back = owner.api("PUT", "/apps/leaflet/kind", "{\"kind\":\"site\"}");
        assertThat(back.statusCode()).as(back.body()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30)).until(() -> visitor("leaflet", "/").statusCode() == 200);
    }

    @Test
    @Order(4)
    void a_second_runtime_host_restarted_during_an_outage_serves_what_the_first_served_from_the_shared_sealed_copy()
            throws Exception {
        HttpResponse<String> first = runtimeDirect("runtime", "leaflet", "/about.html");
        assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
        assertThat(first.headers().firstValue("X-Qaldy-Code")).hasValue("api");
        assertThat(copies("leaflet", ".bundle")).hasSize(1);
        assertThat(copies("leaflet", ".live")).hasSize(1);

        cell.qaldy("stop", "control", "--kill");
        try {
            cell.qaldy("stop", "runtime2");
            cell.qaldy("start", "runtime2");
            HttpResponse<String> second = runtimeDirect("runtime2", "leaflet", "/about.html");
            assertThat(second.statusCode()).as(second.body()).isEqualTo(200);
            assertThat(second.headers().firstValue("X-Qaldy-Code")).hasValue("dc-copy");
            assertThat(second.body()).isEqualTo(first.body());
            assertThat(second.headers().firstValue("ETag")).isEqualTo(first.headers().firstValue("ETag"));
            HttpResponse<String> missing = runtimeDirect("runtime2", "leaflet", "/never-served.html");
            assertThat(missing.statusCode()).as("never served in this data centre").isEqualTo(503);

            // The seal is checked: one changed character of its signature and the copy is refused and deleted.
            Path copy = copies("leaflet", ".bundle").get(0);
            tamperWithTheSeal(copy);
            cell.qaldy("stop", "runtime2");
            cell.qaldy("start", "runtime2");
            HttpResponse<String> refused = runtimeDirect("runtime2", "leaflet", "/about.html");
            assertThat(refused.statusCode()).as("a copy whose seal does not verify is never served").isEqualTo(503);
            assertThat(refused.body()).doesNotContain("Leaflet");
            assertThat(copy).doesNotExist();
        } finally {
            cell.startControl();
        }
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> runtimeDirect("runtime2", "leaflet", "/about.html").statusCode() == 200);
        assertThat(copies("leaflet", ".bundle")).as("written again from the API's bundle").hasSize(1);
    }

    @Test
    @Order(5)
    void a_deleted_site_does_not_come_back_from_the_shared_cache_while_the_api_answers() throws Exception {
        assertThat(runtimeDirect("runtime", "leaflet", "/").statusCode()).isEqualTo(200);
        assertThat(runtimeDirect("runtime2", "leaflet", "/").statusCode()).isEqualTo(200);
        assertThat(copies("leaflet", "")).isNotEmpty();
        assertThat(owner.api("DELETE", "/apps/leaflet", null).statusCode()).isEqualTo(204);

        assertThat(visitor("leaflet", "/").statusCode()).as("the deletion's push cleared the gate's copy").isNotEqualTo(200);
        Thread.sleep(1_500); // past the runtime hosts' live freshness: each asks the API again
        for (String host : List.of("runtime2", "runtime")) {
            HttpResponse<String> gone = runtimeDirect(host, "leaflet", "/");
            assertThat(gone.statusCode()).as(host + " asks first, even with a copy in the shared cache").isEqualTo(404);
        }
        assertThat(copies("leaflet", ".bundle")).as("the shared copy is gone").isEmpty();
        assertThat(copies("leaflet", ".served")).as("the index is gone").isEmpty();
        // The live record is replaced by the control plane's signed tombstone (issue 16 item 4), never the old version.
        for (Path live : copies("leaflet", ".live")) {
            assertThat(Files.readString(live)).as("a deleted app's record is its tombstone: no version, no seal")
                    .contains("\"record\"").doesNotContain("\"version\"").doesNotContain("\"seal\"");
        }
    }

    /**
     * Waits until the gate asks the control plane whether {@code app} is public again (its view of the
     * control plane turned up after an outage): a site then answers with {@code X-Qaldy-Site: asked}.
     */
    static void awaitTheGateAsks(String app) {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(1_100)).until(() -> {
            HttpResponse<String> page = visitor(app, "/");
            return page.statusCode() == 200 && page.headers().firstValue("X-Qaldy-Site").orElse("").equals("asked");
        });
    }

    /** A GET on an app's origin as an anonymous browser: no cookie. */
    static HttpResponse<String> visitor(String app, String path) throws Exception {
        return cell.send(cell.request(cell.appHost(app), path).header("Accept", "text/html,*/*").GET().build());
    }

    /** A request straight to one runtime host as the gate sends a public site's traffic: service token, app, no person. */
    static HttpResponse<String> runtimeDirect(String host, String app, String path) throws Exception {
        String token = cell.credential("gate-to-runtime");
        return cell.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + cell.port(host) + path))
                .timeout(Duration.ofSeconds(30))
                .header("X-Qaldy-Service-Token", token).header("X-Qaldy-App", app).GET().build());
    }

    /** Changes the first character of the seal's signature in a copy's header line (still a well-formed line). */
    static void tamperWithTheSeal(Path copy) throws Exception {
        byte[] bytes = Files.readAllBytes(copy);
        int newline = 0;
        while (bytes[newline] != '\n') {
            newline++;
        }
        String header = new String(bytes, 0, newline, StandardCharsets.US_ASCII);
        int signature = header.lastIndexOf('.') + 1;
        assertThat(signature).isPositive();
        bytes[signature] = (byte) (bytes[signature] == 'A' ? 'B' : 'A');
        Files.write(copy, bytes);
    }

    static List<Path> copies(String app, String suffix) throws Exception {
        Path dir = cell.var().resolve("dc-cache");
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().startsWith(app + ".")
                    && p.getFileName().toString().endsWith(suffix)).toList();
        }
    }
}
