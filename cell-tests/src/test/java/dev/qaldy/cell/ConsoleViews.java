package dev.qaldy.cell;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.drill.console.Browser;
import jakarta.json.JsonObject;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.awaitility.Awaitility;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Issue 20 item 1: every view of the console against the real API's answers, in Chromium. The API
 * is given real data first (a share, a schedule, a webhook and its run, a cap, shield settings, an
 * app shared with the person; the seeded guestbook has its build), then each route of the console's
 * router is opened and must show what the API answers for it (a name, a count, a value), never an
 * empty-state text. The list of routes is read from the console's own {@code main.js}, so a view
 * added without a check here fails this test, as a view reading a field the API does not send does.
 */
final class ConsoleViews {

    /** Every route of the console's router this check opens ({@code main.js} {@code path: [...]}). */
    static final Set<String> ROUTES = Set.of("signin", "signup", "apps", "new", "apps/:app", "apps/:app/:tab", "audit", "billing",
            "open/:app");

    static final String SHARED_APP = "views-shared";
    static final String HOOK = "views-hook";
    /** The cap set through the API, in cents: the console shows it as $43.21. */
    static final long CAP_CENTS = 4321;
    static final long PER_CLIENT_PER_MINUTE = 500;
    static final String ZONE = "Europe/Berlin";
    static final String CRON = "17 3 * * *";

    private ConsoleViews() {
    }

    /**
     * With {@code driver} signed in to the console as {@code demo}: gives the API data, then opens
     * every view and compares it with the API's answer. Screenshots {@code console-view-*.png}.
     */
    static void everyViewShowsWhatTheApiAnswers(Cell cell, Browser browser, Person demo, Path screenshots) throws Exception {
        assertThat(routesOfTheConsole(cell)).as("the console's routes, each checked below; add a check for a new one").isEqualTo(ROUTES);
        WebDriver driver = browser.driver;
        String console = "http://" + cell.publicHost() + "/console/";

        // The data, through the API as a script makes it (Bearer).
        Person viewer = Person.signUp(cell, "views-viewer@example.com");
        assertCreated(demo.api("POST", "/apps/guestbook/shares", "{\"email\":\"" + viewer.email + "\"}"));
        JsonObject schedule = Person.json(assertCreated(demo.api("POST", "/apps/guestbook/schedules",
                "{\"cron\":\"" + CRON + "\",\"zone\":\"" + ZONE + "\",\"job\":\"digest\"}")).body());
        JsonObject hook = Person.json(assertCreated(demo.api("POST", "/apps/guestbook/hooks",
                "{\"name\":\"" + HOOK + "\",\"job\":\"digest\"}")).body());
        byte[] delivery = "{\"views\":true}".getBytes(StandardCharsets.UTF_8);
        HttpResponse<String> delivered = cell.send(cell.request(cell.publicHost(), "/hooks/guestbook/" + HOOK)
                .header("Content-Type", "application/json").header("Idempotency-Key", "views-1")
                .header("Qaldy-Signature", sign(hook.getString("secret"), Instant.now().getEpochSecond(), delivery))
                .POST(HttpRequest.BodyPublishers.ofByteArray(delivery)).build());
        assertThat(delivered.statusCode()).as(delivered.body()).isEqualTo(202);
        assertThat(demo.api("PUT", "/billing/cap", "{\"capCents\":" + CAP_CENTS + "}").statusCode()).isEqualTo(200);
        assertThat(demo.api("PUT", "/apps/guestbook/shield", "{\"perClientPerMinute\":" + PER_CLIENT_PER_MINUTE
                + ",\"dayZone\":\"" + ZONE + "\"}").statusCode()).isEqualTo(200);
        assertCreated(viewer.api("POST", "/apps", "{\"name\":\"" + SHARED_APP + "\"}"));
        assertCreated(viewer.api("POST", "/apps/" + SHARED_APP + "/shares", "{\"email\":\"" + demo.email + "\"}"));
        long run = Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() -> {
            List<JsonObject> runs = Person.json(demo.api("GET", "/apps/guestbook/runs?limit=20", null).body())
                    .getJsonArray("runs").getValuesAs(JsonObject.class);
            return runs.stream().filter(r -> HOOK.equals(r.getString("hook", ""))).mapToLong(r -> r.getJsonNumber("id").longValue())
                    .findFirst().orElse(-1);
        }, id -> id >= 0);

        List<JsonObject> apps = array(demo.api("GET", "/apps", null));
        JsonObject guestbook = apps.stream().filter(a -> a.getString("name").equals("guestbook")).findFirst().orElseThrow();
        long live = guestbook.getJsonNumber("liveVersion").longValue();
        List<JsonObject> builds = array(demo.api("GET", "/apps/guestbook/builds", null));
        JsonObject billing = Person.json(demo.api("GET", "/billing", null).body());
        assertThat(billing.getJsonNumber("capCents").longValue()).isEqualTo(CAP_CENTS);

        // #/apps and #/new: every app the API lists, the live version, who shared it.
        for (String page : List.of("#/apps", "#/new")) {
            open(driver, console + page);
            WebElement row = visible(driver, By.cssSelector("[data-app='guestbook']"));
            assertThat(row.getText()).contains("Live: version " + live).contains("Owner");
            assertThat(visible(driver, By.cssSelector("[data-app='" + SHARED_APP + "']")).getText())
                    .contains("Shared with you by " + viewer.email).contains("Not live yet");
            assertThat(driver.findElements(By.cssSelector("#app-list [data-app]"))).as(page + ": one row per app the API lists")
                    .hasSize(apps.size());
            assertThat(driver.findElements(By.id("apps-empty"))).isEmpty();
        }
        assertThat(((JavascriptExecutor) driver).executeScript("return document.activeElement && document.activeElement.id;"))
                .as("#/new: the create form has the focus").isEqualTo("new-app-name");
        browser.screenshot(screenshots.resolve("console-view-apps.png"));

        // #/apps/guestbook and its tabs (apps/:app/:tab): overview, deploys, access, jobs, webhooks, shield.
        open(driver, console + "#/apps/guestbook");
        assertThat(visible(driver, By.id("live-version")).getText()).isEqualTo("Version " + live);
        browser.screenshot(screenshots.resolve("console-view-app.png"));

        open(driver, console + "#/apps/guestbook/deploys");
        waitForCount(driver, By.cssSelector("#build-list [data-version]"), builds.size());
        for (JsonObject build : builds) {
            String version = build.get("version").toString();
            assertThat(driver.findElement(By.cssSelector("#build-list [data-version='" + version + "']")).getDomAttribute("data-status"))
                    .as("build " + version).isEqualTo(build.getString("status"));
        }
        assertThat(driver.findElements(By.id("builds-empty"))).as("#builds-empty beside the API's builds").isEmpty();

        open(driver, console + "#/apps/guestbook/access");
        assertThat(visible(driver, By.cssSelector("#share-list [data-email='" + viewer.email + "']")).getText()).contains(viewer.email);
        assertThat(driver.findElements(By.id("shares-empty"))).as("#shares-empty beside the API's shares").isEmpty();

        open(driver, console + "#/apps/guestbook/jobs");
        String scheduleText = visible(driver, By.cssSelector("#schedule-list [data-schedule-id='" + schedule.getJsonNumber("id") + "']")).getText();
        assertThat(scheduleText).contains(CRON).contains(ZONE).contains("digest");
        assertThat(visible(driver, By.cssSelector("#run-list [data-run='" + run + "']")).getText()).contains("digest").contains(HOOK);
        for (String empty : List.of("schedules-empty", "runs-empty")) {
            assertThat(driver.findElements(By.id(empty))).as("#" + empty + " beside the API's data").isEmpty();
        }

        open(driver, console + "#/apps/guestbook/webhooks");
        assertThat(visible(driver, By.cssSelector("#hook-list [data-hook-name='" + HOOK + "']")).getText())
                .contains("digest").contains(hook.getString("url"));
        assertThat(driver.findElements(By.id("hooks-empty"))).as("#hooks-empty beside the API's hooks").isEmpty();

        open(driver, console + "#/apps/guestbook/shield");
        new WebDriverWait(driver, Duration.ofSeconds(10)).until(
                ExpectedConditions.attributeToBe(By.id("shield-perClientPerMinute"), "value", Long.toString(PER_CLIENT_PER_MINUTE)));
        assertThat(driver.findElement(By.id("shield-dayZone")).getDomProperty("value")).isEqualTo(ZONE);


        // #/apps/views-shared: an app shared with the person, by whom.
        open(driver, console + "#/apps/" + SHARED_APP);
        new WebDriverWait(driver, Duration.ofSeconds(10)).until(
                ExpectedConditions.textToBePresentInElementLocated(By.id("main"), "is shared with you by " + viewer.email));
        assertThat(driver.findElement(By.id("main")).getText()).contains("Viewer (shared by " + viewer.email + ")");

        // #/audit: the rows the API answers, newest first; asked again until both agree (a change may land between).
        open(driver, console + "#/audit");
        Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
            List<JsonObject> entries = Person.json(demo.api("GET", "/audit?limit=100", null).body())
                    .getJsonArray("entries").getValuesAs(JsonObject.class);
            assertThat(entries).as("audit entries of the person").isNotEmpty();
            @SuppressWarnings("unchecked")
            List<String> actions = (List<String>) ((JavascriptExecutor) driver).executeScript("return Array.from("
                    + "document.querySelectorAll('#audit-table tbody tr')).map(function (r) { return r.cells[2].textContent; });");
            if (actions.size() != entries.size()) {
                driver.findElement(By.id("audit-refresh")).click();
            }
            assertThat(actions).as("the What column, newest first").isEqualTo(entries.stream().map(e -> e.getString("action")).toList());
        });
        assertThat(driver.findElements(By.id("audit-empty"))).isEmpty();
        assertThat(driver.findElement(By.id("audit-table")).getText()).contains(demo.email);
        browser.screenshot(screenshots.resolve("console-view-audit.png"));

        // #/billing: the month, the cap just set, the free allowance.
        open(driver, console + "#/billing");
        assertThat(visible(driver, By.id("billing-cap-now")).getText()).contains("$43.21"); // CAP_CENTS in the account's dollars
        assertThat(driver.findElement(By.id("billing-period")).getText()).isEqualTo(billing.getString("period"));
        assertThat(driver.findElement(By.id("billing-cap")).getDomProperty("value")).isEqualTo("43.21");
        browser.screenshot(screenshots.resolve("console-view-billing.png"));

        // #/signin and #/signup are for guests: signed in, they lead to the apps (the forms: ConsoleTabs).
        for (String page : List.of("#/signin", "#/signup")) {
            open(driver, console + page);
            new WebDriverWait(driver, Duration.ofSeconds(10)).until(ExpectedConditions.urlContains("#/apps"));
            visible(driver, By.cssSelector("[data-app='guestbook']"));
        }

        // #/open/guestbook: the ticket's address, the app on its own origin, which never gets the console's cookie.
        open(driver, console + "#/open/guestbook");
        new WebDriverWait(driver, Duration.ofSeconds(30)).until(ExpectedConditions.urlContains(cell.appHost("guestbook")));
        new WebDriverWait(driver, Duration.ofSeconds(30)).until(ExpectedConditions.titleContains("Guestbook"));
        assertThat(driver.manage().getCookieNamed("qaldy_session")).as("the app's own session").isNotNull();
        assertThat(driver.manage().getCookieNamed("qaldy_console")).as("the console's cookie on an app's origin").isNull();
        open(driver, console + "#/apps");
        visible(driver, By.cssSelector("[data-app='guestbook']"));
    }

    /** The routes in the console's router as served by the gate: {@code path: ['apps', ':app']} → {@code apps/:app}. */
    static Set<String> routesOfTheConsole(Cell cell) throws Exception {
        String main = cell.send(cell.request(cell.publicHost(), "/console/js/main.js").GET().build()).body();
        Matcher paths = Pattern.compile("\\{\\s*path:\\s*\\[([^\\]]*)\\]").matcher(main);
        Set<String> routes = new TreeSet<>();
        while (paths.find()) {
            String route = List.of(paths.group(1).split(",")).stream().map(s -> s.strip().replaceAll("^'|'$", ""))
                    .filter(s -> !s.isEmpty()).collect(Collectors.joining("/"));
            if (!route.isEmpty()) {
                routes.add(route);
            }
        }
        return routes;
    }

    /**
     * Opens {@code url} so that its view renders anew and reads the API: a reload when the tab shows
     * that very address already (going to it again would change nothing), else a navigation.
     */
    static void open(WebDriver driver, String url) {
        if (url.equals(driver.getCurrentUrl())) {
            driver.navigate().refresh();
        } else {
            driver.get(url);
        }
    }

    static WebElement visible(WebDriver driver, By by) {
        return new WebDriverWait(driver, Duration.ofSeconds(15)).until(ExpectedConditions.visibilityOfElementLocated(by));
    }

    private static void waitForCount(WebDriver driver, By by, int count) {
        new WebDriverWait(driver, Duration.ofSeconds(15)).until(d -> d.findElements(by).size() == count);
    }

    private static HttpResponse<String> assertCreated(HttpResponse<String> answer) {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(201);
        return answer;
    }

    private static List<JsonObject> array(HttpResponse<String> answer) {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        try (var reader = jakarta.json.Json.createReader(new java.io.StringReader(answer.body()))) {
            return new ArrayList<>(reader.readArray().getValuesAs(JsonObject.class));
        }
    }

    /** {@code t=<t>,v1=<hex HMAC-SHA256 of "<t>.<body>">}, as a webhook sender signs (docs/cell-contract.md). */
    static String sign(String secret, long t, byte[] body) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        mac.update((t + ".").getBytes(StandardCharsets.UTF_8));
        return "t=" + t + ",v1=" + HexFormat.of().formatHex(mac.doFinal(body));
    }
}
