package dev.qaldy.cell;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.drill.console.Browser;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Issue 7, test 2, on a real cell: every process of the cell but the status page stopped with
 * {@code bin/qaldy stop}; the status page (its own process and storage) still loads in headless
 * Chromium (the tab left open updates itself, and a reload shows the same) and shows the gate, the
 * control plane and the runtime host down since a time after the stop, the database, builder and
 * scheduler (which only the control plane can report) unknown since then, never green; the overall
 * status a major outage; an incident opened automatically for each component it found down
 * (threshold shortened to 5 s through {@link #STATUS_OPTS}). Its JSON summary says the same, and
 * an operator signs in with the status page's own account and opens an incident, which the page
 * shows. Before all that, with the cell healthy, its own server frozen (SIGSTOP) for a while: the
 * open page then says "No data since …" on every row and nothing green, and comes back by itself
 * once the server answers again (SIGCONT). Then (issue 20, item 5) the runtime host alone stopped:
 * the page's "Apps (already opened)" row says Down, the banner a major outage (never "Partial
 * outage") and its one sentence "Apps are down; …" in people's words, with no part of the cell
 * named in it. Leaves the cell stopped but for the status page.
 */
final class StatusPageWhenTheCellIsStopped {

    /** The status page's settings for this test: an incident after 5 s down (default 30 s), probes every 5 s (the default). */
    static final String STATUS_OPTS = "-Dqaldy.status.incident-after=PT5S -Dqaldy.status.probe-interval=PT5S";
    /** A probe round that started just before a stop may already see the component go: this much earlier counts too. */
    static final Duration PROBE_SLACK = Duration.ofSeconds(6);
    /** Components the status page probes itself: down when their process is stopped. */
    static final List<String> PROBED = List.of("gate", "control", "runtime");
    /** Components only the control plane's readiness reports: unknown (never green) when it does not answer. */
    static final List<String> REPORTED = List.of("database", "builder", "scheduler");

    /** Each component row of the page at one moment, read in one script (the page redraws its rows every few seconds). */
    private static final String ROWS_SCRIPT = """
            return Array.from(document.querySelectorAll('li.component')).map(function (li) {
              return { component: li.dataset.component, id: li.dataset.componentId, status: li.dataset.status,
                       stale: li.dataset.stale, since: li.dataset.since,
                       sinceText: (li.querySelector('.since') || {}).textContent || '',
                       state: (li.querySelector('.state-text') || {}).textContent || '',
                       detail: (li.querySelector('.detail') || {}).textContent || '' };
            });""";
    private static final String PAGE_SCRIPT = """
            var overall = document.getElementById('overall');
            return { indicator: overall.dataset.indicator, text: document.getElementById('overall-text').textContent,
                     fresh: document.body.dataset.fresh || '', title: document.title,
                     cells: Array.from(document.querySelectorAll('section.cell')).map(function (s) { return s.dataset.indicator; }).join(' '),
                     incidents: Array.from(document.querySelectorAll('#open-incidents li.incident')).map(function (li) {
                       return { origin: li.dataset.incidentOrigin, status: li.dataset.incidentStatus,
                                components: li.dataset.incidentComponents || '',
                                name: (li.querySelector('.incident-name') || {}).textContent || '' };
                     }) };""";

    private StatusPageWhenTheCellIsStopped() {
    }

    /** Runs the whole test on {@code cell}; screenshots go to {@code screenshots}. */
    static void check(Cell cell, Path screenshots) throws Exception {
        try (Browser browser = new Browser(cell.var().resolve("browser"))) {
            JavascriptExecutor page = browser.driver;
            browser.driver.get(statusUrl(cell, "/"));
            waitFor(browser, Duration.ofSeconds(90), "every component working, fresh data (the cell is up)",
                    rows -> rows.size() == PROBED.size() + REPORTED.size()
                            && rows.stream().allMatch(r -> "operational".equals(r.get("status")) && "false".equals(r.get("stale")))
                            && "true".equals(pageState(page).get("fresh")));

            noGreenWithoutFreshData(cell, browser, screenshots);

            Instant beforeStop = Instant.now();
            withTheRuntimeHostStoppedAppsAreDownInPeoplesWords(cell, browser, screenshots);
            List<String> cellProcesses = new ArrayList<>(Cell.COMPONENTS);
            cellProcesses.remove("status");
            List<String> stopOrder = new ArrayList<>(cellProcesses);
            Collections.reverse(stopOrder); // gate, runtime, control, db: the database last, as `down` does
            stopOrder.remove("runtime"); // stopped already
            for (String component : stopOrder) {
                cell.qaldy("stop", component);
            }
            String status = cell.qaldy("status");
            for (String component : cellProcesses) {
                assertThat(status).containsPattern(component + "\\s+-\\s+" + cell.port(component) + "\\s+stopped");
            }
            assertThat(status).containsPattern("status\\s+\\d+\\s+" + cell.port("status") + "\\s+ready");

            // The page as a person loads it now: from the status page's own process, nothing from anywhere else.
            HttpResponse<String> html = get(cell, "/");
            assertThat(html.statusCode()).isEqualTo(200);
            assertThat(html.headers().firstValue("Content-Type").orElse("")).startsWith("text/html");
            assertThat(html.body()).contains("status.js").doesNotContain("http://").doesNotContain("https://");

            // The tab left open refreshes itself (no reload) …
            String what = "gate, control plane and runtime host down, the rest unknown, an automatic incident for each one down";
            waitFor(browser, Duration.ofSeconds(120), what, r -> allDownOrUnknown(r) && automaticIncidentsFor(pageState(page), PROBED));
            // … and a person who opens the page now gets the same.
            browser.driver.navigate().refresh();
            List<Map<String, Object>> rows = waitFor(browser, Duration.ofSeconds(30), "after a reload: " + what,
                    r -> allDownOrUnknown(r) && automaticIncidentsFor(pageState(page), PROBED));
            Instant seen = Instant.now();
            for (Map<String, Object> row : rows) {
                String component = (String) row.get("component");
                boolean probed = PROBED.contains(component);
                assertThat(row.get("status")).as(component).isEqualTo(probed ? "major_outage" : "unknown");
                assertThat(row.get("stale")).as(component + ": fresh data, not 'no data'").isEqualTo("false");
                assertThat(Instant.parse((String) row.get("since"))).as(component + " since")
                        .isBetween(beforeStop.minus(PROBE_SLACK), seen);
                assertThat((String) row.get("sinceText")).as(component).startsWith(probed ? "Down since " : "Unknown since ")
                        .matches(".*\\d{1,2}:\\d{2}.*");
                assertThat((String) row.get("state")).as(component).isEqualTo(probed ? "Down" : "Unknown");
                assertThat((String) row.get("detail")).as(component + ": why").isNotBlank();
                if (!probed) {
                    assertThat((String) row.get("detail")).as(component).contains("control plane does not answer");
                }
            }
            Map<String, Object> state = pageState(page);
            assertThat(state.get("indicator")).as("overall").isIn("major", "critical");
            assertThat((String) state.get("text")).as("overall").containsIgnoringCase("outage").doesNotContainIgnoringCase("operational");
            assertThat((String) state.get("title")).doesNotContainIgnoringCase("operational");
            assertThat(state.get("cells")).as("the cell's own status").isIn("major", "critical");
            Map<String, Object> groups = groups(page);
            assertThat(groups.get("statuses")).as("every way of using the platform")
                    .isEqualTo("apps=major_outage sign-in=major_outage console=major_outage builds=major_outage "
                            + "webhooks=major_outage schedules=major_outage");
            assertThat((String) groups.get("headline")).as("the sentence under the banner")
                    .isEqualTo("Apps, sign-in, changes, builds, webhooks and schedules are all down.");
            browser.screenshot(screenshots.resolve("status-page-cell-stopped.png"));

            JsonObject summary = Person.json(get(cell, "/api/v2/summary.json").body());
            assertThat(summary.getJsonObject("status").getString("indicator")).isIn("major", "critical");
            for (JsonObject component : summary.getJsonArray("components").getValuesAs(JsonObject.class)) {
                String key = component.getString("component");
                assertThat(component.getString("status")).as(key).isEqualTo(PROBED.contains(key) ? "major_outage" : "unknown");
                assertThat(Instant.parse(component.getString("since"))).as(key).isBetween(beforeStop.minus(PROBE_SLACK), seen);
                assertThat(component.isNull("no_data_since")).as(key + ": fresh probes").isTrue();
            }
            for (String key : PROBED) {
                JsonObject incident = summary.getJsonArray("incidents").getValuesAs(JsonObject.class).stream()
                        .filter(i -> i.getString("origin").equals("automatic")
                                && i.getJsonArray("components").getValuesAs(JsonString.class).stream()
                                        .anyMatch(c -> c.getString().endsWith("." + key)))
                        .findFirst().orElseThrow(() -> new AssertionError("no automatic incident for " + key + ": " + summary));
                assertThat(Instant.parse(incident.getString("created_at"))).as(key + ": the first failing probe")
                        .isBetween(beforeStop.minus(PROBE_SLACK), seen);
                assertThat(incident.get("resolved_at")).isEqualTo(JsonValue.NULL);
                assertThat(incident.getString("status")).isNotEqualTo("resolved");
            }

            anOperatorOpensAnIncidentWithTheStatusPagesOwnAccount(cell, browser, screenshots);
        }
    }

    /**
     * With the whole cell stopped, the operator signs in with the status page's own account (its
     * password file, nothing from the cell), opens an incident, and the public page shows it.
     */
    private static void anOperatorOpensAnIncidentWithTheStatusPagesOwnAccount(Cell cell, Browser browser, Path screenshots) throws Exception {
        String origin = "http://127.0.0.1:" + cell.port("status");
        String password = Files.readAllLines(cell.var().resolve("status/operator-password")).get(0).strip();
        HttpResponse<String> signIn = cell.send(HttpRequest.newBuilder(URI.create(origin + "/api/operator/session"))
                .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json").header("Origin", origin)
                .POST(HttpRequest.BodyPublishers.ofString(Json.createObjectBuilder()
                        .add("user", "operator").add("password", password).build().toString()))
                .build());
        assertThat(signIn.statusCode()).as(signIn.body()).isEqualTo(200);
        String cookie = signIn.headers().firstValue("Set-Cookie").orElseThrow().split(";", 2)[0];
        String csrf = Person.json(signIn.body()).getString("csrf_token");
        String name = "Whole cell stopped for a test";
        HttpResponse<String> opened = cell.send(HttpRequest.newBuilder(URI.create(origin + "/api/operator/incidents"))
                .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json").header("Origin", origin)
                .header("Cookie", cookie).header("X-CSRF-Token", csrf)
                .POST(HttpRequest.BodyPublishers.ofString(Json.createObjectBuilder().add("name", name)
                        .add("status", "identified").add("message", "Every process but the status page was stopped on purpose.")
                        .build().toString()))
                .build());
        assertThat(opened.statusCode()).as(opened.body()).isEqualTo(201);
        JavascriptExecutor page = browser.driver;
        try {
            new WebDriverWait(browser.driver, Duration.ofSeconds(30), Duration.ofMillis(500)).until(driver -> {
                @SuppressWarnings("unchecked")
                List<Map<String, Object>> incidents = (List<Map<String, Object>>) pageState(page).get("incidents");
                return incidents.stream().anyMatch(i -> "operator".equals(i.get("origin")) && name.equals(i.get("name"))
                        && "identified".equals(i.get("status")));
            });
        } catch (TimeoutException e) {
            throw new AssertionError("the operator's incident is not on the page: " + pageState(page), e);
        }
        browser.screenshot(screenshots.resolve("status-page-operator-incident.png"));
    }

    /**
     * The status page's own server frozen (SIGSTOP): the open page must stop showing green within
     * its fetch timeout and say "No data since …" on every row, then recover by itself (SIGCONT).
     */
    private static void noGreenWithoutFreshData(Cell cell, Browser browser, Path screenshots) throws Exception {
        JavascriptExecutor page = browser.driver;
        cell.signal("status", "STOP");
        try {
            List<Map<String, Object>> rows = waitFor(browser, Duration.ofSeconds(45),
                    "every row 'No data since …' while the status page's server is frozen",
                    r -> !r.isEmpty() && r.stream().allMatch(row -> "unknown".equals(row.get("status")) && "true".equals(row.get("stale"))));
            for (Map<String, Object> row : rows) {
                assertThat((String) row.get("sinceText")).as(row.get("component") + "").startsWith("No data since ");
                assertThat((String) row.get("state")).as(row.get("component") + "").isEqualTo("No data");
                assertThat((String) row.get("detail")).as(row.get("component") + ": an old 'Ready.' is marked as such")
                        .startsWith("Last known before the data stopped: ");
            }
            Map<String, Object> state = pageState(page);
            assertThat(state.get("indicator")).isEqualTo("unknown");
            assertThat(state.get("fresh")).isEqualTo("false");
            assertThat(state.get("cells")).isEqualTo("unknown");
            assertThat((String) state.get("text")).startsWith("No fresh status data since").doesNotContainIgnoringCase("operational");
            assertThat(browser.driver.findElement(By.id("main")).getText())
                    .doesNotContain("All systems operational").doesNotContain("Working since");
            browser.screenshot(screenshots.resolve("status-page-no-fresh-data.png"));
        } finally {
            cell.signal("status", "CONT");
        }
        waitFor(browser, Duration.ofSeconds(45), "fresh data again once the status page's server answers",
                r -> !r.isEmpty() && r.stream().allMatch(row -> "operational".equals(row.get("status")) && "false".equals(row.get("stale"))));
    }

    /**
     * The runtime host alone stopped: every app answers 502, so the page must say apps are down, a
     * major outage, in people's words, and what still works (sign-in, the console, builds).
     */
    private static void withTheRuntimeHostStoppedAppsAreDownInPeoplesWords(Cell cell, Browser browser, Path screenshots)
            throws Exception {
        JavascriptExecutor page = browser.driver;
        cell.qaldy("stop", "runtime");
        try {
            new WebDriverWait(browser.driver, Duration.ofSeconds(60), Duration.ofMillis(500)).until(driver ->
                    ((String) groups(page).get("statuses")).startsWith("apps=major_outage ")
                            && "true".equals(pageState(page).get("fresh")));
        } catch (TimeoutException e) {
            throw new AssertionError("with the runtime host stopped, apps are not shown down within 60 s: "
                    + groups(page) + " " + pageState(page), e);
        }
        Map<String, Object> groups = groups(page);
        assertThat(groups.get("statuses")).isEqualTo("apps=major_outage sign-in=operational console=operational "
                + "builds=operational webhooks=major_outage schedules=major_outage");
        String headline = (String) groups.get("headline");
        assertThat(headline).isEqualTo("Apps are down; sign-in, the console and builds keep working; webhooks and schedules wait.");
        assertThat(headline).doesNotContainIgnoringCase("runtime").doesNotContainIgnoringCase("control plane");
        String banner = browser.driver.findElement(By.id("overall")).getText();
        assertThat(banner).contains("Major outage").contains(headline).doesNotContain("Partial outage");
        assertThat(pageState(page).get("indicator")).isEqualTo("critical");
        String apps = browser.driver.findElement(By.cssSelector("#groups li.group[data-group='apps']")).getText();
        assertThat(apps).contains("Apps (already opened)").contains("Down").contains("Relies on: Gate, Runtime host");
        String signIn = browser.driver.findElement(By.cssSelector("#groups li.group[data-group='sign-in']")).getText();
        assertThat(signIn).contains("Sign-in and first opening").contains("Working");
        assertThat(browser.driver.findElement(By.id("components-section")).getText())
                .as("the parts stay below, labelled in plain words").contains("Runtime host").contains("Runs the apps.");
        browser.screenshot(screenshots.resolve("status-page-runtime-stopped.png"));
    }

    /** The groups' statuses as "id=status …" in page order, and the headline sentence, read in one script. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> groups(JavascriptExecutor page) {
        return (Map<String, Object>) page.executeScript("""
                return { statuses: Array.from(document.querySelectorAll('#groups li.group')).map(function (li) {
                           return li.dataset.group + '=' + li.dataset.status; }).join(' '),
                         headline: document.getElementById('headline').textContent };""");
    }

    private static boolean allDownOrUnknown(List<Map<String, Object>> rows) {
        return rows.size() == PROBED.size() + REPORTED.size() && rows.stream().allMatch(r -> "false".equals(r.get("stale"))
                && (PROBED.contains((String) r.get("component")) ? "major_outage" : "unknown").equals(r.get("status")));
    }

    @SuppressWarnings("unchecked")
    private static boolean automaticIncidentsFor(Map<String, Object> state, List<String> components) {
        List<Map<String, Object>> incidents = (List<Map<String, Object>>) state.get("incidents");
        return components.stream().allMatch(c -> incidents.stream().anyMatch(i -> "automatic".equals(i.get("origin"))
                && List.of(((String) i.get("components")).split(" ")).stream().anyMatch(id -> id.endsWith("." + c))));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> pageState(JavascriptExecutor page) {
        return (Map<String, Object>) page.executeScript(PAGE_SCRIPT);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> rows(JavascriptExecutor page) {
        return (List<Map<String, Object>>) page.executeScript(ROWS_SCRIPT);
    }

    /** Polls the page's rows until {@code done} holds; fails after {@code atMost} with what the page showed. */
    private static List<Map<String, Object>> waitFor(Browser browser, Duration atMost, String what,
            Predicate<List<Map<String, Object>>> done) {
        JavascriptExecutor page = browser.driver;
        try {
            return new WebDriverWait(browser.driver, atMost, Duration.ofMillis(500)).until(driver -> {
                List<Map<String, Object>> rows = rows(page);
                return done.test(rows) ? rows : null;
            });
        } catch (TimeoutException e) {
            throw new AssertionError("within " + atMost.toSeconds() + " s: " + what + "; the page shows "
                    + pageState(page) + " and rows " + rows(page).stream().map(Object::toString).collect(Collectors.joining("\n  ", "\n  ", "")), e);
        }
    }

    private static String statusUrl(Cell cell, String path) {
        return "http://127.0.0.1:" + cell.port("status") + path;
    }

    private static HttpResponse<String> get(Cell cell, String path) throws Exception {
        return cell.send(HttpRequest.newBuilder(URI.create(statusUrl(cell, path))).timeout(Duration.ofSeconds(10)).GET().build());
    }
}
