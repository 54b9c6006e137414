package dev.qaldy.cell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.qaldy.drill.console.Browser;
import dev.qaldy.contract.keys.CellKeys;
import dev.qaldy.contract.session.Session;
import dev.qaldy.contract.session.SessionTokens;
import jakarta.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.time.Duration;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.interfaces.ECPrivateKey;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Issue 2 end to end on a real cell from {@code bin/qaldy up}: the seeded guestbook opens on its
 * own origin, a handler answers, sharing decides who gets in, and bad input is refused clearly.
 * Signing out ends the session at the gate, also across a restart of the gate (next to last: it
 * restarts the gate) and with the control plane killed (last: it kills the control plane).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PublishAndOpenIT {

    static Cell cell;
    static Person demo;

    @BeforeAll
    static void startCell() throws Exception {
        cell = Cell.up("publish", Map.of(Cell.NO_STATUS, Cell.WITH_STATUS_PAGE)); // the launcher starts a whole cell, status page included
        Map<String, String> credentials = cell.demoEnv();
        demo = Person.existing(cell, credentials.get("QALDY_DEMO_EMAIL"), credentials.get("QALDY_DEMO_PASSWORD"));
    }

    @AfterAll
    static void stopCell() {
        if (cell != null) {
            cell.close();
        }
    }

    @Test
    void the_launcher_reports_every_component_ready_and_a_second_up_says_so() throws Exception {
        String status = cell.qaldy("status");
        for (String component : Cell.COMPONENTS) {
            assertThat(status).containsPattern(component + "\\s+\\d+\\s+" + cell.port(component) + "\\s+ready");
        }
        assertThat(cell.qaldy("up")).contains("already up");
    }

    @Test
    void the_seeded_guestbook_opens_on_its_own_origin_and_its_handler_answers() throws Exception {
        HttpResponse<String> apps = demo.api("GET", "/apps", null);
        assertThat(apps.statusCode()).isEqualTo(200);
        assertThat(apps.body()).contains("\"guestbook\"");

        demo.openApp("guestbook");
        HttpResponse<String> page = demo.get("guestbook", "/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
        assertThat(page.body()).contains("Guestbook").contains("<form");
        assertThat(page.headers().allValues("Server")).as("no server name or version for scanners").isEmpty();
        assertThat(apps.headers().allValues("Server")).isEmpty();
        assertThat(page.headers().allValues("X-Powered-By")).isEmpty();

        HttpResponse<String> signed = demo.postJson("guestbook", "/api/sign", "{\"name\":\"Ana\",\"message\":\"Hello from a test\"}");
        assertThat(signed.statusCode()).as(signed.body()).isEqualTo(200);
        assertThat(Person.json(signed.body()).getString("message")).contains("Thanks, Ana");

        HttpResponse<String> invalid = demo.postJson("guestbook", "/api/sign", "{\"name\":\"\",\"message\":\"x\"}");
        assertThat(invalid.statusCode()).isEqualTo(400);
    }

    @Test
    void a_browser_without_a_session_is_sent_to_the_console_sign_in_and_a_script_gets_401() throws Exception {
        HttpResponse<String> browser = cell.send(cell.request(cell.appHost("guestbook"), "/notes?x=1")
                .header("Accept", "text/html").GET().build());
        assertThat(browser.statusCode()).isEqualTo(302);
        assertThat(browser.headers().firstValue("Location").orElseThrow())
                .startsWith("http://" + cell.publicHost() + "/console/#/open/guestbook");

        HttpResponse<String> script = cell.send(cell.request(cell.appHost("guestbook"), "/api/entries")
                .header("Accept", "application/json").GET().build());
        assertThat(script.statusCode()).isEqualTo(401);
    }

    @Test
    void sharing_decides_who_may_open_an_app() throws Exception {
        Person owner = Person.signUp(cell, "owner-share@example.com");
        Person viewer = Person.signUp(cell, "viewer-share@example.com");
        owner.publish("shared", guestbookSource());

        viewer.openApp("shared");
        assertThat(viewer.get("shared", "/").statusCode()).isEqualTo(403);

        HttpResponse<String> share = owner.api("POST", "/apps/shared/shares", "{\"email\":\"" + viewer.email + "\"}");
        assertThat(share.statusCode()).as(share.body()).isEqualTo(201);
        assertThat(viewer.get("shared", "/").statusCode()).isEqualTo(200);
        assertThat(viewer.api("GET", "/apps", null).body()).contains("\"shared\"");

        HttpResponse<String> revoke = owner.api("DELETE", "/apps/shared/shares/" + viewer.email, null);
        assertThat(revoke.statusCode()).isEqualTo(204);
        assertThat(viewer.get("shared", "/").statusCode()).isEqualTo(403);

        HttpResponse<String> audit = owner.api("GET", "/audit", null);
        assertThat(audit.body()).contains("share").contains("revoke").contains(viewer.email);
    }

    @Test
    void the_cookie_of_one_apps_origin_opens_that_app_only() throws Exception {
        Person owner = Person.signUp(cell, "owner-origin@example.com");
        owner.publish("origin-a", guestbookSource());
        owner.publish("origin-b", guestbookSource());
        owner.openApp("origin-a");
        String cookie = owner.appCookie("origin-a");
        String token = cookie.substring(cookie.indexOf('=') + 1);
        assertThat(owner.get("origin-a", "/").statusCode()).isEqualTo(200);

        HttpResponse<String> api = cell.send(cell.request(cell.publicHost(), "/api/v1/apps")
                .header("Authorization", "Bearer " + token).GET().build());
        assertThat(api.statusCode()).as("the API refuses an app origin's session").isEqualTo(401);
        assertThat(api.body()).contains("opens one app only");

        HttpResponse<String> other = cell.send(cell.request(cell.appHost("origin-b"), "/")
                .header("Accept", "application/json").header("Cookie", cookie).GET().build());
        assertThat(other.statusCode()).as("another app's origin, even the same owner's").isEqualTo(401);
        HttpResponse<String> withApiSession = cell.send(cell.request(cell.appHost("origin-b"), "/")
                .header("Authorization", "Bearer " + owner.token()).GET().build());
        assertThat(withApiSession.statusCode()).as("the person's API session opens their app").isEqualTo(200);
    }

    @Test
    void a_zip_slip_archive_fails_its_build_with_a_clear_log_line() throws Exception {
        Person person = Person.signUp(cell, "slip@example.com");
        assertThat(person.api("POST", "/apps", "{\"name\":\"slip\"}").statusCode()).isEqualTo(201);
        byte[] evil = zipOf(Map.of("qaldy.json", "{\"name\":\"slip\",\"kind\":\"app\"}",
                "public/index.html", "<h1>hi</h1>", "../../evil.txt", "owned"));
        HttpResponse<String> upload = person.upload("slip", evil);
        assertThat(upload.statusCode()).isEqualTo(202);
        JsonObject build = person.awaitBuild("slip", Person.json(upload.body()).getJsonNumber("version").longValue());
        assertThat(build.getString("status")).isEqualTo("failed");
        assertThat(build.toString()).contains("..");
        assertThat(cell.root().resolve("evil.txt")).doesNotExist();
    }

    @Test
    void an_upload_over_the_limit_is_refused_with_413() throws Exception {
        Person person = Person.signUp(cell, "big@example.com");
        assertThat(person.api("POST", "/apps", "{\"name\":\"big\"}").statusCode()).isEqualTo(201);
        byte[] big = new byte[11 * 1024 * 1024];
        new java.util.Random(1).nextBytes(big);
        HttpResponse<String> upload = person.upload("big", big);
        assertThat(upload.statusCode()).isEqualTo(413);
        assertThat(upload.body()).doesNotContain("Exception").doesNotContain("at dev.");
    }

    @Test
    void forged_tokens_and_tokens_of_another_key_get_401_everywhere() throws Exception {
        String real = demo.token();
        String forged = real.substring(0, real.length() - 4) + (real.endsWith("AAAA") ? "BBBB" : "AAAA");
        Instant now = Instant.now();
        String otherKey = SessionTokens.sign(new Session(1, demo.email, "x", now, now.plusSeconds(600)),
                (ECPrivateKey) CellKeys.generate().getPrivate());
        for (String token : new String[] {forged, otherKey, "not-a-token"}) {
            HttpResponse<String> api = cell.send(cell.request(cell.publicHost(), "/api/v1/apps")
                    .header("Authorization", "Bearer " + token).GET().build());
            assertThat(api.statusCode()).as("API with %s", token).isEqualTo(401);
            HttpResponse<String> app = cell.send(cell.request(cell.appHost("guestbook"), "/")
                    .header("Accept", "application/json").header("Authorization", "Bearer " + token).GET().build());
            assertThat(app.statusCode()).as("app with %s", token).isEqualTo(401);
            HttpResponse<String> cookie = cell.send(cell.request(cell.appHost("guestbook"), "/")
                    .header("Accept", "application/json").header("Cookie", "qaldy_session=" + token).GET().build());
            assertThat(cookie.statusCode()).as("cookie %s", token).isEqualTo(401);
        }
    }

    @Test
    void an_app_name_with_a_dot_is_refused_with_a_clear_400() throws Exception {
        HttpResponse<String> created = demo.api("POST", "/apps", "{\"name\":\"my.app\"}");
        assertThat(created.statusCode()).isEqualTo(400);
        assertThat(created.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).contains("problem+json"));
        assertThat(Person.json(created.body()).getString("detail")).isNotBlank();
    }

    @Test
    void unknown_hosts_and_internal_paths_are_never_forwarded() throws Exception {
        assertThat(cell.send(cell.request("evil.example.com", "/").GET().build()).statusCode()).isEqualTo(400);
        assertThat(cell.send(cell.request("a.b.localhost:" + cell.port("gate"), "/").GET().build()).statusCode()).isEqualTo(400);
        assertThat(cell.send(cell.request(cell.publicHost(), "/api/v1/internal/access?app=guestbook&person=1")
                .GET().build()).statusCode()).isEqualTo(404);
    }

    /**
     * Host ports the server's HTTP parser cannot read, written on the wire as they are (Java's
     * HTTP client would refuse to send them): the gate's clear 400, never Payara's empty 200, never
     * the app. A signed-in person's cookie goes with them, so a mistaken route would show the app.
     */
    @Test
    void a_host_header_with_a_bad_or_doubled_port_gets_a_clear_400() throws Exception {
        demo.openApp("guestbook");
        String cookie = demo.browserRequest("gate", "guestbook", "/").build().headers().firstValue("Cookie").orElseThrow();
        int port = cell.port("gate");
        for (String host : List.of("guestbook.localhost:" + port + "@evil.example", "guestbook.localhost:" + port + ":1",
                "guestbook.localhost:abc", "localhost:" + port + "@evil.example", "guestbook.localhost:" + port + ":" + port)) {
            String reply = raw(port, "GET / HTTP/1.1\r\nHost: " + host + "\r\nUser-Agent: qaldy-cell-test\r\nAccept: text/html\r\n"
                    + "Cookie: " + cookie + "\r\nConnection: close\r\n\r\n");
            assertThat(reply).as(host).startsWith("HTTP/1.1 400 ");
            assertThat(reply).as(host).contains("Unknown address").doesNotContain("Guestbook");
        }
        assertThat(demo.get("guestbook", "/").statusCode()).as("the same person with a good Host").isEqualTo(200);
    }

    @Test
    void a_path_the_server_cannot_decode_gets_the_gates_400_page_on_every_origin() throws Exception {
        int port = cell.port("gate");
        long logBefore = Files.size(cell.var().resolve("log/gate.log"));
        for (String host : List.of("localhost:" + port, "guestbook.localhost:" + port)) {
            for (String path : List.of("/%ZZ", "/api/h%ZZ", "/console/%ZZ", "/api/v1/apps/%ZZ", "/nul%00", "/%")) {
                String reply = raw(port, "GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nUser-Agent: qaldy-cell-test\r\n"
                        + "Accept: text/html\r\nConnection: close\r\n\r\n");
                assertThat(reply).as(host + path).startsWith("HTTP/1.1 400 ").contains("X-Content-Type-Options: nosniff");
                assertThat(reply).as(host + path).contains("<!doctype html>");
            }
        }
        byte[] log = Files.readAllBytes(cell.var().resolve("log/gate.log"));
        String added = new String(log, (int) logBefore, log.length - (int) logBefore, StandardCharsets.UTF_8);
        assertThat(added).as("no stack trace per bad request").doesNotContain("URLDecoder").doesNotContain("SEVERE");
    }

    /** One request as raw bytes on a socket; the whole answer (the gate closes the connection). */
    static String raw(int port, String request) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static Path guestbookSource() {
        return cell.root().resolve("examples/guestbook");
    }

    static byte[] zipOf(Map<String, String> entries) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            for (Map.Entry<String, String> e : entries.entrySet()) {
                zip.putNextEntry(new ZipEntry(e.getKey()));
                zip.write(e.getValue().getBytes(StandardCharsets.UTF_8));
                zip.closeEntry();
            }
        }
        return bytes.toByteArray();
    }

    @Test
    void a_person_signs_in_on_the_console_in_chromium_and_opens_the_guestbook() throws Exception {
        try (Browser browser = new Browser(cell.var().resolve("browser"))) {
            WebDriver driver = browser.driver;
            WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(30));
            driver.get("http://" + cell.publicHost() + "/console/");
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("email"))).sendKeys(demo.email);
            driver.findElement(By.id("password")).sendKeys(demo.password);
            driver.findElement(By.id("signin")).click();
            wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("[data-open='guestbook']"))).click();

            wait.until(ExpectedConditions.urlContains("guestbook.localhost"));
            wait.until(ExpectedConditions.titleContains("Guestbook"));
            browser.screenshot(cell.root().resolve("cell-tests/target/screenshots/guestbook.png"));
            assertThat(driver.manage().getCookieNamed("qaldy_session")).as("session cookie on the app's origin").isNotNull();

            WebElement form = driver.findElement(By.tagName("form"));
            form.findElement(By.name("name")).sendKeys("Browser Bea");
            form.findElement(By.name("message")).sendKeys("Signed from Chromium");
            form.findElement(By.cssSelector("button[type='submit'], input[type='submit']")).click();
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("body"), "Thanks, Browser Bea"));
        }
    }

    /** A request to {@code app}'s origin as a script sends it, with {@code Authorization: Bearer token}. */
    private static HttpResponse<String> withBearer(String app, String token) throws Exception {
        return cell.send(cell.request(cell.appHost(app), "/").header("Accept", "application/json")
                .header("Authorization", "Bearer " + token).GET().build());
    }

    /** A request to {@code app}'s origin with {@code cookie} ({@code qaldy_session=…}), as a script or a browser sends it. */
    private static HttpResponse<String> withCookie(String app, String cookie, String accept) throws Exception {
        return cell.send(cell.request(cell.appHost(app), "/").header("Accept", accept).header("Cookie", cookie).GET().build());
    }

    @Test
    @Order(Integer.MAX_VALUE - 1) // after the others (it restarts the gate), before the one that kills the control plane
    void a_session_signed_out_before_the_gate_restarted_stays_signed_out_and_a_fresh_one_opens() throws Exception {
        Person person = Person.signUp(cell, "restart-signout@example.com");
        person.publish("restarted", guestbookSource());
        person.openApp("restarted");
        String old = person.token();
        assertThat(withBearer("restarted", old).statusCode()).isEqualTo(200);
        assertThat(person.api("DELETE", "/sessions/current", null).statusCode()).isEqualTo(204);
        assertThat(withBearer("restarted", old).statusCode()).as("signed out, before the restart").isEqualTo(401);

        cell.qaldy("stop", "gate");
        cell.qaldy("start", "gate"); // the API is up: the gate loads the sign-outs as it starts

        assertThat(cell.qaldy("status")).containsPattern("gate\\s+\\d+\\s+" + cell.port("gate") + "\\s+ready");
        person.signIn();
        String fresh = person.token();
        // Until the gate has loaded the sign-outs, a session alone gets 503; never 200 for the old token.
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
            assertThat(withBearer("restarted", old).statusCode()).as("the signed-out token after the restart").isIn(401, 503);
            return withBearer("restarted", fresh).statusCode() != 503;
        });
        int freshStatus = withBearer("restarted", fresh).statusCode();
        assertThat(freshStatus).as("a fresh session of the same person").isEqualTo(200);
        HttpResponse<String> refused = withBearer("restarted", old);
        assertThat(refused.statusCode()).as("the signed-out token, as for any signed-out session").isEqualTo(401);
        HttpResponse<String> browser = cell.send(cell.request(cell.appHost("restarted"), "/").header("Accept", "text/html")
                .header("Authorization", "Bearer " + old).GET().build());
        assertThat(browser.statusCode()).as("a browser is asked to sign in").isEqualTo(302);
        assertThat(browser.headers().firstValue("Location").orElseThrow())
                .startsWith("http://" + cell.publicHost() + "/console/#/open/restarted");
    }

    @Test
    @Order(Integer.MAX_VALUE) // last: it kills the control plane
    void signing_out_ends_the_session_at_the_gate_at_once_and_while_the_control_plane_is_down() throws Exception {
        Person person = Person.signUp(cell, "signout@example.com");
        person.publish("signout", guestbookSource());
        person.openApp("signout");
        String bearer = person.token();
        String cookie = person.appCookie("signout");
        assertThat(withBearer("signout", bearer).statusCode()).isEqualTo(200);
        assertThat(withCookie("signout", cookie, "application/json").statusCode()).isEqualTo(200);

        // 1. signed out through the API: the gate refuses the same bearer token at once
        assertThat(person.api("DELETE", "/sessions/current", null).statusCode()).isEqualTo(204);
        assertThat(person.api("GET", "/apps", null).statusCode()).isEqualTo(401);
        HttpResponse<String> refused = withBearer("signout", bearer);
        assertThat(refused.statusCode()).as("the signed-out API token on the app's origin").isEqualTo(401);
        assertThat(withCookie("signout", cookie, "application/json").statusCode())
                .as("the app origin's own session is another session").isEqualTo(200);

        // 2. /.qaldy/signout on the app's origin: the cookie's value replayed opens nothing
        HttpResponse<String> page = cell.send(cell.request(cell.appHost("signout"), "/.qaldy/signout")
                .header("Accept", "text/html").header("Cookie", cookie).header("Origin", "http://" + cell.appHost("signout"))
                .POST(HttpRequest.BodyPublishers.noBody()).build());
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("X-Qaldy-Signed-Out")).hasValue("everywhere");
        assertThat(page.headers().allValues("Set-Cookie")).anySatisfy(c -> assertThat(c).startsWith("qaldy_session=;"));
        assertThat(withCookie("signout", cookie, "application/json").statusCode()).as("the old cookie replayed").isEqualTo(401);
        HttpResponse<String> browser = withCookie("signout", cookie, "text/html");
        assertThat(browser.statusCode()).as("a browser is asked to sign in, as for an expired session").isEqualTo(302);
        assertThat(browser.headers().firstValue("Location").orElseThrow())
                .startsWith("http://" + cell.publicHost() + "/console/#/open/signout");

        // 3. a new session, signed out through the API, then the control plane killed
        person.signIn();
        person.openApp("signout");
        String bearer2 = person.token();
        String cookie2 = person.appCookie("signout");
        assertThat(withBearer("signout", bearer2).statusCode()).isEqualTo(200);
        assertThat(withCookie("signout", cookie2, "application/json").statusCode()).isEqualTo(200);
        assertThat(person.api("DELETE", "/sessions/current", null).statusCode()).isEqualTo(204);
        cell.qaldy("stop", "control", "--kill");

        assertThat(withBearer("signout", bearer).statusCode()).as("with the control plane killed").isEqualTo(401);
        assertThat(withBearer("signout", bearer2).statusCode()).as("with the control plane killed").isEqualTo(401);
        HttpResponse<String> kept = withCookie("signout", cookie2, "application/json");
        assertThat(kept.statusCode()).as("a session not signed out keeps working during the outage").isEqualTo(200);
        assertThat(kept.headers().firstValue("X-Qaldy-Access")).as("from the gate's memory")
                .hasValueSatisfying(source -> assertThat(source).isIn("fresh-copy", "outage-copy"));

        // 4. /.qaldy/signout while the control plane is down: the cookie is cleared, the page says so, never fails
        HttpResponse<String> outage = cell.send(cell.request(cell.appHost("signout"), "/.qaldy/signout")
                .header("Accept", "text/html").header("Cookie", cookie2).header("Origin", "http://" + cell.appHost("signout"))
                .POST(HttpRequest.BodyPublishers.noBody()).build());
        assertThat(outage.statusCode()).isEqualTo(200);
        assertThat(outage.headers().firstValue("X-Qaldy-Signed-Out")).hasValue("this-gate");
        assertThat(outage.headers().allValues("Set-Cookie")).anySatisfy(c -> assertThat(c).startsWith("qaldy_session=;"));
        assertThat(outage.body()).contains("signed out of signout in this browser", "sign out there again")
                .doesNotContain("control plane");
        assertThat(withCookie("signout", cookie2, "application/json").statusCode()).as("the old cookie replayed").isEqualTo(401);
    }
}
