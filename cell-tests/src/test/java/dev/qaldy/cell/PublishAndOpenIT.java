package dev.qaldy.cell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.qaldy.contract.keys.CellKeys;
import dev.qaldy.contract.session.Session;
import dev.qaldy.contract.session.SessionTokens;
import dev.qaldy.drill.console.Browser;
import jakarta.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

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
                CellKeys.signing(CellKeys.generate()));
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

    /**
     * Issue 20, "expected of a PaaS console", as a new owner sees it in Chromium: the app page in tabs
     * named in the URL (back and forward move between them); the first upload goes live by itself,
     * a later one waits for Promote, an archive made for another app is refused saying what to
     * change, and the build log lists the builder's steps; the job of a schedule or webhook is chosen
     * from the live version's jobs (a sentence when it registers none); the webhook secret has a copy
     * button, and a test delivery the control plane signs runs the job and shows in the hook's deliveries; the
     * plan's limits show beside the shield's fields; Settings can make every build go live; sharing with an email that has no account says what happens; money is in dollars.
     */
    @Test
    void a_new_owner_deploys_and_sets_up_an_app_through_the_tabs_of_its_page() throws Exception {
        Person owner = Person.signUp(cell, "tabs@example.com");
        assertThat(owner.api("POST", "/apps", "{\"name\":\"tabbed\"}").statusCode()).isEqualTo(201);
        Path uploads = Files.createDirectories(cell.var().resolve("browser-uploads"));
        Path otherApp = Files.write(uploads.resolve("other.zip"), zipOf(Map.of("qaldy.json", "{\"name\":\"other\",\"kind\":\"app\"}",
                "public/index.html", "<h1>other</h1>")));
        Path noJobs = Files.write(uploads.resolve("tabbed-v1.zip"), zipOf(Map.of("qaldy.json", "{\"name\":\"tabbed\",\"kind\":\"app\"}",
                "public/index.html", "<h1>Tabbed</h1>", "server.js", "app.get('/api/hi', function (req) { return {status: 200, json: {hi: 1}}; });")));
        Path withDigest = Files.write(uploads.resolve("tabbed-v2.zip"), Person.zip(guestbookSource(), "tabbed")); // registers 'digest'
        Path shots = cell.root().resolve("cell-tests/target/screenshots");
        String console = "http://" + cell.publicHost() + "/console/";

        try (Browser browser = new Browser(cell.var().resolve("browser"))) {
            WebDriver driver = browser.driver;
            WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(30));
            driver.get(console);
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("email"))).sendKeys(owner.email);
            driver.findElement(By.id("password")).sendKeys(owner.password);
            driver.findElement(By.id("signin")).click();
            wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("[data-app='tabbed']")));

            // Overview: the tabs, the URL naming the app, nothing live yet and what to do about it.
            driver.get(console + "#/apps/tabbed");
            WebElement liveNow = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("live-version")));
            assertThat(driver.findElements(By.cssSelector("#app-tabs a.tab"))).extracting(WebElement::getText)
                    .containsExactly("Overview", "Deploys", "Access", "Jobs", "Webhooks", "Shield", "Settings");
            assertThat(driver.findElement(By.cssSelector("#app-tabs [aria-current='page']")).getText()).isEqualTo("Overview");
            assertThat(liveNow.getText()).isEqualTo("None yet. Upload a build on Deploys: the first one that builds goes live by itself.");
            assertThat(driver.findElements(By.id("build-file"))).as("one section at a time").isEmpty();
            browser.screenshot(shots.resolve("app-tab-overview.png"));

            // Deploys: an archive made for another app is refused at upload, saying what to change.
            tab(driver, wait, "deploys");
            assertThat(driver.getCurrentUrl()).endsWith("#/apps/tabbed/deploys");
            assertThat(driver.getTitle()).startsWith("Deploys · tabbed");
            assertThat(driver.findElements(By.id("live-version"))).isEmpty();
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("builds-empty")));
            driver.findElement(By.id("build-file")).sendKeys(otherApp.toString());
            driver.findElement(By.id("upload-build")).click();
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("upload-msg"), "qaldy.json"));
            assertThat(driver.findElement(By.id("upload-msg")).getText()).isEqualTo("The upload did not go through. This archive's"
                    + " qaldy.json names the app \"other\", not \"tabbed\". Set \"name\" to \"tabbed\" in qaldy.json and upload it"
                    + " again, or upload it to the app \"other\".");
            assertThat(driver.findElements(By.cssSelector("#build-list [data-version]"))).as("nothing was built").isEmpty();

            // The first build goes live by itself; its log lists the builder's steps.
            driver.findElement(By.id("build-file")).sendKeys(noJobs.toString());
            driver.findElement(By.id("upload-build")).click();
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("builds-msg"), "Version 1 built"));
            assertThat(driver.findElement(By.id("builds-msg")).getText())
                    .isEqualTo("Version 1 built and is live: it is the app’s first build. Later builds wait until you promote them.");
            WebElement first = driver.findElement(By.cssSelector("#build-list [data-version='1']"));
            assertThat(first.getDomAttribute("data-status")).isEqualTo("succeeded");
            assertThat(first.findElement(By.cssSelector(".badge.live")).getText()).isEqualTo("Live now");
            if (first.findElement(By.cssSelector("details")).getDomAttribute("open") == null) { // the upload opened it
                first.findElement(By.cssSelector("summary")).click();
            }
            String log = wait.until(ExpectedConditions.visibilityOf(first.findElement(By.cssSelector("pre.log")))).getText();
            assertThat(log.lines().map(l -> l.split("[: ]")[0]).toList()).as(log)
                    .containsSubsequence("archive", "manifest", "bundle", "sealed", "jobs", "live");
            assertThat(log).contains("manifest: name=tabbed, kind=app").contains("jobs (app.job): no jobs")
                    .contains("live: version 1 is the app's first build, so it went live by itself; later builds wait for Promote");
            browser.screenshot(shots.resolve("app-tab-deploys-first.png"));

            // Jobs: the live version registers none, and the page says so instead of offering a text field.
            tab(driver, wait, "jobs");
            WebElement none = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("schedule-job-none")));
            assertThat(none.getText()).isEqualTo("The live version 1 registers no jobs. Add one to its server.js, e.g."
                    + " app.job('digest', function (ctx) { … }), deploy it and promote it, then come back.");
            assertThat(driver.findElements(By.id("schedule-job"))).isEmpty();
            assertThat(driver.findElement(By.id("schedule-add")).isEnabled()).as("nothing to schedule").isFalse();
            browser.screenshot(shots.resolve("app-tab-jobs-none.png"));

            // Back and forward move between tabs.
            driver.navigate().back();
            wait.until(ExpectedConditions.urlToBe(console + "#/apps/tabbed/deploys"));
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#build-list [data-version='1']")));
            assertThat(driver.findElement(By.cssSelector("#app-tabs [aria-current='page']")).getText()).isEqualTo("Deploys");
            driver.navigate().forward();
            wait.until(ExpectedConditions.urlToBe(console + "#/apps/tabbed/jobs"));
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("schedule-job-none")));

            // A later build waits for Promote.
            tab(driver, wait, "deploys");
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#build-list [data-version='1']")));
            driver.findElement(By.id("build-file")).sendKeys(withDigest.toString());
            driver.findElement(By.id("upload-build")).click();
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("builds-msg"), "Version 2 built"));
            assertThat(driver.findElement(By.id("builds-msg")).getText()).isEqualTo("Version 2 built. Promote it to make it live.");
            assertThat(driver.findElement(By.cssSelector("#build-list [data-version='1'] .badge.live")).getText()).isEqualTo("Live now");
            driver.findElement(By.cssSelector("[data-promote='2']")).click();
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("builds-msg"), "Version 2 is live."));

            // Jobs and Webhooks: the job is chosen from the live version's jobs.
            tab(driver, wait, "jobs");
            WebElement scheduleJob = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("schedule-job")));
            assertThat(scheduleJob.getTagName()).isEqualTo("select");
            assertThat(scheduleJob.findElements(By.tagName("option"))).extracting(WebElement::getText).containsExactly("digest");
            driver.findElement(By.id("schedule-cron")).sendKeys("0 8 * * *");
            wait.until(ExpectedConditions.elementToBeClickable(By.id("schedule-add"))).click();
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("schedules-msg"), "Added."));
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("schedule-list"), "digest"));
            browser.screenshot(shots.resolve("app-tab-jobs.png"));

            tab(driver, wait, "webhooks");
            WebElement hookJob = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("hook-job")));
            assertThat(hookJob.getTagName()).isEqualTo("select");
            assertThat(hookJob.findElements(By.tagName("option"))).extracting(WebElement::getText).containsExactly("digest");
            driver.findElement(By.id("hook-name")).sendKeys("ci");
            wait.until(ExpectedConditions.elementToBeClickable(By.id("hook-create"))).click();
            String secret = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("hook-secret-value"))).getText();
            assertThat(secret).hasSizeGreaterThanOrEqualTo(40);
            driver.findElement(By.id("hook-secret-copy")).click();
            wait.until(ExpectedConditions.textMatches(By.id("hook-secret-copy-msg"), java.util.regex.Pattern.compile(".+")));
            assertThat(driver.findElement(By.id("hook-secret-copy-msg")).getText()).isIn(
                    "Copied the secret. Paste it where the sender keeps its secrets.",
                    "The browser did not let the console copy it; the secret is selected, so press Ctrl+C (⌘C on a Mac).");
            // The control plane sends the hook a signed test event; it runs the job and shows in the deliveries.
            wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("[data-test-hook='ci']"))).click();
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("[data-test-msg='ci']"), "Sent"));
            assertThat(driver.findElement(By.cssSelector("[data-test-msg='ci']")).getText())
                    .isEqualTo("Sent a test delivery to “ci”, signed with its secret: it runs digest and shows below.");
            WebElement delivery = new WebDriverWait(driver, Duration.ofSeconds(60)).until(ExpectedConditions.visibilityOfElementLocated(
                    By.cssSelector("[data-deliveries='ci'] [data-test='true']")));
            assertThat(delivery.getText()).contains("Test delivery").containsPattern("run \\d+");
            new WebDriverWait(driver, Duration.ofSeconds(60)).until(ExpectedConditions.textMatches(
                    By.cssSelector("[data-deliveries='ci'] [data-test='true']"), java.util.regex.Pattern.compile("run \\d+ succeeded$")));
            browser.screenshot(shots.resolve("app-tab-webhooks.png"));
            // Issue 17: roll the secret, the previous one accepted for an hour; the new one shown once.
            driver.findElement(By.cssSelector("[data-hook-name='ci'] details.log-details > summary")).click();
            new org.openqa.selenium.support.ui.Select(driver.findElement(By.id("hook-keep-ci"))).selectByVisibleText("for 1 hour");
            wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("[data-roll-hook='ci']"))).click();
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("hook-secret"), "Rolled the secret of “ci”"));
            String rolledSecret = driver.findElement(By.id("hook-secret-value")).getText();
            assertThat(rolledSecret).hasSizeGreaterThanOrEqualTo(40).isNotEqualTo(secret);
            assertThat(driver.findElement(By.id("hook-secret")).getText()).contains("Copy the new one now: it is not shown again.");
            assertThat(driver.findElement(By.id("hook-previous-until")).getText())
                    .startsWith("Deliveries signed with the previous secret are accepted until ")
                    .endsWith("; switch your senders to the new one before then.");
            assertThat(wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("[data-previous-until='ci']"))).getText())
                    .startsWith("The previous secret is accepted until ");
            browser.screenshot(shots.resolve("app-tab-webhooks-rolled.png"));

            // Shield: the plan's limits beside the fields, from the gate.
            tab(driver, wait, "shield");
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("shield-perClientPerMinute-plan"), "plan allows"));
            assertThat(driver.findElement(By.id("shield-perClientPerMinute-plan")).getText())
                    .isEqualTo("The free plan allows 600 requests a minute per visitor; set a lower number to limit it further.");
            assertThat(driver.findElement(By.id("shield-perAppPerMinute-plan")).getText())
                    .isEqualTo("The free plan allows 6,000 requests a minute for everyone; set a lower number to limit it further.");
            assertThat(driver.findElement(By.id("shield-perAppPerDay-plan")).getText())
                    .isEqualTo("The free plan allows 100,000 requests a day; set a lower number to limit it further.");
            assertThat(driver.findElement(By.id("shield-perAppPerDay")).getDomAttribute("placeholder")).isEqualTo("100000");
            browser.screenshot(shots.resolve("app-tab-shield.png"));

            // Access: sharing with an email that has no account says what happens.
            tab(driver, wait, "access");
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("share-email"))).sendKeys("no-account-yet@example.com");
            driver.findElement(By.id("share-add")).click();
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("share-msg"), "Shared with"));
            assertThat(driver.findElement(By.id("share-msg")).getText()).isEqualTo("Shared with no-account-yet@example.com. If they"
                    + " have no Qaldy account yet, it waits for them: once they create one with this email, tabbed is in their apps."
                    + " Qaldy sends no email, so tell them yourself.");
            browser.screenshot(shots.resolve("app-tab-access.png"));

            // Settings: every build may go live by itself.
            tab(driver, wait, "settings");
            assertThat(wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("promote-every-status"))).getText())
                    .isEqualTo("The first build goes live by itself; later builds wait until you promote them on Deploys.");
            assertThat(driver.findElement(By.id("delete-app")).isDisplayed()).isTrue();
            driver.findElement(By.id("promote-every-toggle")).click();
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("promote-every-msg"), "Saved."));
            assertThat(driver.findElement(By.id("promote-every-msg")).getText())
                    .isEqualTo("Saved. Each new build of tabbed goes live as soon as it succeeds.");
            tab(driver, wait, "deploys");
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#build-list [data-version='2']")));
            driver.findElement(By.id("build-file")).sendKeys(withDigest.toString());
            driver.findElement(By.id("upload-build")).click();
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("builds-msg"), "Version 3 built"));
            assertThat(driver.findElement(By.id("builds-msg")).getText())
                    .isEqualTo("Version 3 built and is live: the app’s settings say every build goes live.");
            assertThat(driver.findElement(By.cssSelector("#build-list [data-version='3'] .badge.live")).getText()).isEqualTo("Live now");
            browser.screenshot(shots.resolve("app-tab-deploys-every.png"));

            // A section the page does not have says so and links to the overview.
            driver.get(console + "#/apps/tabbed/nonsense");
            assertThat(wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("app-no-tab"))).getText())
                    .isEqualTo("tabbed has no section called “nonsense”. Choose one of the sections above.");

            // Billing: money in dollars, never cents; the cap is set in dollars.
            driver.get(console + "#/billing");
            WebElement cap = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("billing-cap-now")));
            assertThat(cap.getText()).matches("\\$\\d+\\.\\d\\d(, the default)?");
            assertThat(driver.findElement(By.id("billing-spent")).getText()).startsWith("$");
            assertThat(driver.findElement(By.tagName("main")).getText()).doesNotContain("¢").doesNotContainIgnoringCase("cents");
            WebElement capInput = driver.findElement(By.id("billing-cap"));
            capInput.clear();
            capInput.sendKeys("12.5");
            driver.findElement(By.id("billing-cap-save")).click();
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("billing-cap-msg"), "Saved."));
            assertThat(driver.findElement(By.id("billing-cap-now")).getText()).isEqualTo("$12.50");
            browser.screenshot(shots.resolve("billing-dollars.png"));
        }
        assertThat(Person.json(owner.api("GET", "/billing", null).body()).getInt("capCents")).isEqualTo(1250);
    }

    /**
     * Issue 20, the app page of a person it is shared with, in Chromium: the overview only (the
     * owner's tabs are not offered), their role and who shared it, the live version and a working
     * Open; an owner's tab opened by its address says that only the owner (named) can see it and
     * links back to the overview.
     */
    @Test
    void a_viewer_sees_the_overview_of_a_shared_app_and_none_of_the_owners_tabs() throws Exception {
        Person owner = Person.signUp(cell, "owner-viewed@example.com");
        Person viewer = Person.signUp(cell, "viewer-viewed@example.com");
        owner.publish("viewed", guestbookSource());
        assertThat(owner.api("POST", "/apps/viewed/shares", "{\"email\":\"" + viewer.email + "\"}").statusCode()).isEqualTo(201);
        String console = "http://" + cell.publicHost() + "/console/";

        try (Browser browser = new Browser(cell.var().resolve("browser"))) {
            WebDriver driver = browser.driver;
            WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(30));
            driver.get(console);
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("email"))).sendKeys(viewer.email);
            driver.findElement(By.id("password")).sendKeys(viewer.password);
            driver.findElement(By.id("signin")).click();
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("[data-app='viewed']")));

            driver.get(console + "#/apps/viewed");
            wait.until(ExpectedConditions.attributeToBe(By.id("app-tab"), "data-tab", "overview"));
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("live-version"), "Version 1"));
            assertThat(driver.findElements(By.cssSelector("#app-tabs li[data-owner-tab]"))).as("the owner's tabs").hasSize(6)
                    .allSatisfy(li -> assertThat(li.isDisplayed()).as(li.getText()).isFalse());
            assertThat(driver.findElement(By.cssSelector("#app-tabs [data-tab='overview']")).isDisplayed()).isTrue();
            String page = driver.findElement(By.tagName("main")).getText();
            assertThat(page).contains("Viewer (shared by " + owner.email + ")").contains("Shared with you")
                    .contains("Only its owner can upload builds");
            browser.screenshot(cell.root().resolve("cell-tests/target/screenshots/viewer-overview.png"));

            driver.get(console + "#/apps/viewed/deploys");
            WebElement ownerOnly = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("app-owner-only")));
            assertThat(ownerOnly.getText()).isEqualTo("Only the owner of viewed can see its deploys (" + owner.email + ")."
                    + " You can open the app from its overview.");
            assertThat(driver.findElements(By.cssSelector("input[type='file']"))).as("no upload for a viewer").isEmpty();
            driver.findElement(By.linkText("Go to the overview of viewed")).click();
            wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("[data-open='viewed']"))).click();
            wait.until(ExpectedConditions.urlContains("viewed.localhost"));
            wait.until(ExpectedConditions.titleContains("Guestbook"));
        }
    }

    /** Clicks the app page's tab {@code id} and waits until the URL names it. */
    private static void tab(WebDriver driver, WebDriverWait wait, String id) {
        wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("#app-tabs [data-tab='" + id + "']"))).click();
        wait.until(ExpectedConditions.urlContains("#/apps/tabbed/" + id));
        wait.until(ExpectedConditions.attributeToBe(By.id("app-tab"), "data-tab", id));
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

    /**
     * Issue 16 item 9, the cell's key rotated as README says (bin/qaldy keys add, restart the gate
     * and the runtime host, keys use-next, restart the control plane): every JWS names its key
     * ({@code kid}); a session and an app version signed by the old key keep working, new ones are
     * signed by the new key, and the gate never refuses either.
     */
    @Test
    @Order(Integer.MAX_VALUE - 2) // restarts the gate, the runtime host and the control plane; before the two below
    void the_cells_key_rotates_and_no_session_or_version_it_signed_stops_working() throws Exception {
        Person person = Person.signUp(cell, "rotation@example.com");
        person.publish("sealedold", guestbookSource()); // sealed, and its live record signed, by the old key
        person.openApp("sealedold");
        String before = person.token();
        String oldKid = kid(before);
        assertThat(withBearer("sealedold", before).statusCode()).isEqualTo(200);

        assertThat(cell.qaldy("keys", "add")).contains("published the next key");
        for (String component : List.of("gate", "runtime")) {
            cell.qaldy("stop", component);
            cell.qaldy("start", component);
        }
        assertThat(withBearer("sealedold", before).statusCode()).as("the old key, with the next one published").isEqualTo(200);
        cell.qaldy("keys", "use-next");
        cell.qaldy("stop", "control");
        cell.qaldy("start", "control");

        // The gate asks the control plane again once its probe hears it (every 0.5 s while failing);
        // until then signing in is "paused for a moment", a 503 (clean-clone run of 51df533, under load).
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .untilAsserted(person::signIn);
        String after = person.token();
        assertThat(kid(after)).as("signed by the new key").isNotEqualTo(oldKid).hasSize(43);
        assertThat(cell.qaldy("keys")).contains(kid(after) + "  signs").contains(oldKid + "  verifies only");
        person.publish("sealednew", guestbookSource()); // sealed by the new key
        person.openApp("sealednew");
        assertThat(withBearer("sealednew", person.token()).statusCode()).isEqualTo(200);
        assertThat(withBearer("sealedold", after).statusCode()).as("a version the old key sealed, a new session").isEqualTo(200);
        assertThat(withBearer("sealedold", before).statusCode()).as("a session the old key signed").isEqualTo(200);
    }

    /** The {@code kid} in a compact JWS's header. */
    private static String kid(String jws) {
        String header = new String(java.util.Base64.getUrlDecoder().decode(jws.substring(0, jws.indexOf('.'))), StandardCharsets.UTF_8);
        java.util.regex.Matcher kid = java.util.regex.Pattern.compile("\"kid\":\"([^\"]+)\"").matcher(header);
        assertThat(kid.find()).as("a kid in " + header).isTrue();
        return kid.group(1);
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
