package dev.qaldy.cell;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.drill.console.Browser;
import jakarta.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.WindowType;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Issue 7, tests 1 and 2, on a real cell in headless Chromium. Test 1: with the control plane
 * killed, the console shows the outage banner after two misses (poll shortened to 1 s through
 * config), holds back every change and keeps what it showed; with the control plane back, the
 * banner goes and the changes come back, without a reload; meanwhile the guestbook's page, opened and
 * signed in another tab before, lists its notes from the runtime host's replica and says so (issue 18). Test 2 (last, since it stops the whole
 * cell but its status page: {@link StatusPageWhenTheCellIsStopped}): the status page says so, with
 * "since" times and incidents opened automatically (threshold shortened to 5 s through config),
 * and never shows green without fresh data; before that, with the runtime host alone stopped, it
 * says apps are down in people's words (issue 20, item 5). First of all, the new cell's status page
 * has no start-up incident and no downtime. Between them, with the cell whole again: every view of
 * the console shows what the API answers ({@link ConsoleViews}, issue 20 item 1), and the console's
 * session is the browser's, across tabs, with its CSRF defence ({@link ConsoleTabs}, item 4).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleOutageIT {

    static final String MARKER = "set before the outage";

    static Cell cell;
    static Browser browser;

    @BeforeAll
    static void startCell() throws Exception {
        cell = Cell.up("console", Map.of("QALDY_OPTS_GATE", "-Dqaldy.console.poll-interval=PT1S",
                "QALDY_OPTS_STATUS", StatusPageWhenTheCellIsStopped.STATUS_OPTS, Cell.NO_STATUS, Cell.WITH_STATUS_PAGE));
    }

    @AfterAll
    static void stopCell() {
        try {
            if (browser != null) {
                browser.close();
            }
        } finally {
            if (cell != null) {
                cell.close();
            }
        }
    }

    /**
     * Issue 20, item 5: a new cell's status page opens without a start-up incident and without
     * downtime: a part not ready yet when the status page began watching it is starting, not down.
     */
    @Test
    @Order(0)
    void a_new_cells_status_page_opens_without_a_start_up_incident_or_downtime() throws Exception {
        String origin = "http://127.0.0.1:" + cell.port("status");
        JsonObject summary = Person.json(cell.send(HttpRequest.newBuilder(URI.create(origin + "/api/v2/summary.json"))
                .timeout(Duration.ofSeconds(10)).GET().build()).body());
        assertThat(summary.getJsonArray("incidents")).as("open incidents of a new cell: " + summary).isEmpty();
        assertThat(summary.getJsonArray("resolved_incidents")).as("resolved incidents of a new cell").isEmpty();
        assertThat(summary.getJsonObject("status").getString("indicator")).isNotIn("major", "critical");
        assertThat(summary.getJsonArray("groups")).hasSize(6);
        JsonObject uptime = Person.json(cell.send(HttpRequest.newBuilder(URI.create(origin + "/api/v2/uptime.json"))
                .timeout(Duration.ofSeconds(10)).GET().build()).body());
        for (JsonObject component : uptime.getJsonArray("components").getValuesAs(JsonObject.class)) {
            JsonObject today = component.getJsonArray("days").getJsonObject(component.getJsonArray("days").size() - 1);
            assertThat(today.getInt("down")).as(component.getString("id") + ": no downtime counted on a new cell").isZero();
        }
    }

    @Test
    @Order(1)
    void the_gate_serves_the_consoles_settings_from_config() throws Exception {
        HttpResponse<String> settings = cell.send(cell.request(cell.publicHost(), "/console/settings.json").GET().build());
        assertThat(settings.statusCode()).isEqualTo(200);
        assertThat(settings.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
        assertThat(settings.headers().firstValue("Cache-Control").orElse("")).contains("no-store");
        JsonObject json = Person.json(settings.body());
        assertThat(json.getInt("pollIntervalMs")).isEqualTo(1000);
        assertThat(json.getInt("missesBeforeBanner")).isEqualTo(2);
    }

    @Test
    @Order(2)
    void with_the_api_killed_the_console_says_so_holds_changes_back_and_recovers_without_a_reload() throws Exception {
        Map<String, String> demo = cell.demoEnv();
        browser = new Browser(cell.var().resolve("browser"));
        WebDriver driver = browser.driver;
        JavascriptExecutor js = (JavascriptExecutor) driver;
        WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(30));

        driver.get("http://" + cell.publicHost() + "/console/");
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("email"))).sendKeys(demo.get("QALDY_DEMO_EMAIL"));
        driver.findElement(By.id("password")).sendKeys(demo.get("QALDY_DEMO_PASSWORD"));
        driver.findElement(By.id("signin")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("[data-app='guestbook']")));
        assertThat(driver.findElement(By.id("create-app")).isEnabled()).isTrue();
        assertThat(driver.findElements(By.id("outage-banner"))).isEmpty();
        js.executeScript("window.qaldyOutageMarker = arguments[0];", MARKER);
        Person owner = Person.existing(cell, demo.get("QALDY_DEMO_EMAIL"), demo.get("QALDY_DEMO_PASSWORD"));
        HttpResponse<String> hook = owner.api("POST", "/apps/guestbook/hooks", "{\"name\":\"outage-ping\",\"job\":\"digest\"}");
        assertThat(hook.statusCode()).as(hook.body()).isEqualTo(201);
        String hookSecret = Person.json(hook.body()).getString("secret");
        String console = driver.getWindowHandle();
        String guestbook = aPersonSignsTheGuestbookInItsOwnTab(driver, owner);
        driver.switchTo().window(console);

        Instant beforeKill = Instant.now();
        cell.qaldy("stop", "control", "--kill");

        WebElement banner = new WebDriverWait(driver, Duration.ofSeconds(10)).until(
                ExpectedConditions.visibilityOfElementLocated(By.id("outage-banner")));
        new WebDriverWait(driver, Duration.ofSeconds(10)).until(
                ExpectedConditions.textToBePresentInElement(banner, "has not answered since"));
        assertThat(banner.getText())
                .contains("The control plane has not answered since")
                .contains("Apps people already opened keep working.")
                .contains("Webhook deliveries are checked and queued at the gate, and run once it is back.")
                .contains("Signing in, builds and changes wait until it is back.");
        assertThat(banner.getDomAttribute("role")).isEqualTo("status");
        assertThat(banner.getDomAttribute("aria-live")).isEqualTo("polite");
        Instant since = Instant.parse(banner.getDomAttribute("data-since"));
        assertThat(since).as("the time of the first miss").isBetween(beforeKill.minusSeconds(1), Instant.now());

        WebElement create = driver.findElement(By.id("create-app"));
        assertThat(create.isEnabled()).as("#create-app while the control plane is down").isFalse();
        assertThat(create.getDomAttribute("title")).contains("not answering");
        for (WebElement change : driver.findElements(By.cssSelector("[data-change]"))) {
            assertThat(change.isEnabled()).as("every control that changes something").isFalse();
        }
        WebElement row = driver.findElement(By.cssSelector("[data-app='guestbook']"));
        assertThat(row.isDisplayed()).as("what the console showed stays").isTrue();
        assertThat(row.getText()).contains("guestbook");
        browser.screenshot(screenshots().resolve("console-outage.png"));

        aPersonWhoOpensTheConsoleDuringTheOutageSeesItLoadAndSaysWhy(driver);
        movingToAnotherPageAndBackKeepsTheAppsTheConsoleRead(driver);
        theWebhooksTabSaysWhatWaitsAtTheGate(driver, hookSecret);
        theGuestbookStillListsItsNotesFromACopyAndSaysSo(driver, guestbook);
        driver.switchTo().window(console);

        cell.qaldy("start", "control");

        new WebDriverWait(driver, Duration.ofSeconds(30)).until(
                ExpectedConditions.invisibilityOfElementLocated(By.id("outage-banner")));
        assertThat(driver.findElements(By.id("outage-banner"))).as("the banner is gone").isEmpty();
        assertThat(js.executeScript("return window.qaldyOutageMarker;")).as("no reload").isEqualTo(MARKER);
        wait.until(ExpectedConditions.elementToBeClickable(By.id("create-app")));
        assertThat(driver.findElement(By.id("create-app")).getDomAttribute("title")).isNull();
        assertThat(driver.findElement(By.cssSelector("[data-app='guestbook']")).isDisplayed()).isTrue();
        browser.screenshot(screenshots().resolve("console-outage-over.png"));
    }

    /**
     * Issue 18: the owner opens the guestbook in a tab of its own and signs it; the page keeps the data
     * bookmark of the note for the tab. Returns the tab, once the runtime host's replica holds the note.
     */
    private static String aPersonSignsTheGuestbookInItsOwnTab(WebDriver driver, Person owner) throws Exception {
        HttpResponse<String> ticket = owner.api("POST", "/tickets", "{\"app\":\"guestbook\",\"returnPath\":\"/\"}");
        assertThat(ticket.statusCode()).as(ticket.body()).isEqualTo(201);
        driver.switchTo().newWindow(WindowType.TAB);
        driver.get(Person.json(ticket.body()).getString("url"));
        WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(30));
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("name"))).sendKeys("Ada");
        driver.findElement(By.id("message")).sendKeys("signed before the outage");
        driver.findElement(By.id("submit")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("status"), "Thanks, Ada!"));
        String bookmark = (String) ((JavascriptExecutor) driver).executeScript("return sessionStorage.getItem('qaldy-data-bookmark');");
        assertThat(bookmark).as("the page keeps the note's data bookmark for the tab").matches("[0-9]+");
        new WebDriverWait(driver, Duration.ofSeconds(30)).pollingEvery(Duration.ofMillis(200))
                .until(d -> cell.dataReplicaPosition("runtime") >= Long.parseLong(bookmark));
        return driver.getWindowHandle();
    }

    /** Issue 18: during the outage the guestbook's page, reloaded, lists the note from the runtime host's replica and says so. */
    private static void theGuestbookStillListsItsNotesFromACopyAndSaysSo(WebDriver driver, String tab) throws Exception {
        driver.switchTo().window(tab);
        driver.navigate().refresh();
        WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(30));
        WebElement asOf = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("as-of")));
        assertThat(asOf.getText()).startsWith("Qaldy is answering from a copy of the notes as of ")
                .contains("signing waits until then");
        assertThat(driver.findElement(By.id("entries")).getText()).contains("signed before the outage");
        assertThat(driver.findElement(By.id("status")).getText()).as("no error line").isEmpty();
        browser.screenshot(screenshots().resolve("guestbook-from-the-replica.png"));
    }

    /**
     * Issue 17: a signed delivery sent during the outage is queued at the gate (202), and the owner's
     * Webhooks tab says, from the gate, how many wait there and since when, and that they run once
     * the control plane is back.
     */
    private static void theWebhooksTabSaysWhatWaitsAtTheGate(WebDriver driver, String hookSecret) throws Exception {
        byte[] body = "{\"note\":\"during the outage\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        HttpResponse<String> queued = cell.send(cell.request(cell.publicHost(), "/hooks/guestbook/outage-ping")
                .header("Content-Type", "application/json")
                .header("Qaldy-Signature", dev.qaldy.contract.hooks.HookSignature.sign(hookSecret, Instant.now().getEpochSecond(), body))
                .header("Idempotency-Key", "console-outage-1")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build());
        assertThat(queued.statusCode()).as(queued.body()).isEqualTo(202);
        assertThat(queued.body()).contains("\"queued\":true");
        driver.get("http://" + cell.publicHost() + "/console/#/apps/guestbook/webhooks");
        WebElement waiting = new WebDriverWait(driver, Duration.ofSeconds(15)).until(
                ExpectedConditions.visibilityOfElementLocated(By.cssSelector("[data-edge-waiting='outage-ping']")));
        assertThat(waiting.getText()).startsWith("“outage-ping”: 1 delivery waits at this gate since ")
                .endsWith("It was checked and answered 202; it runs once the control plane is back.");
        assertThat(waiting.getDomAttribute("data-count")).isEqualTo("1");
        browser.screenshot(screenshots().resolve("console-outage-webhooks-waiting.png"));
        driver.get("http://" + cell.publicHost() + "/console/#/apps"); // where the rest of the test looks
        new WebDriverWait(driver, Duration.ofSeconds(10)).until(ExpectedConditions.visibilityOfElementLocated(By.id("apps-waiting")));
    }

    /**
     * Issue 20: with the control plane still down, the first tab moves to another page and back to
     * its apps: the list it read before the outage is shown again, marked with the time it was read,
     * with its Open button and address, never "will load when it is back" over an empty list.
     */
    private static void movingToAnotherPageAndBackKeepsTheAppsTheConsoleRead(WebDriver driver) throws Exception {
        driver.get("http://" + cell.publicHost() + "/console/#/billing");
        new WebDriverWait(driver, Duration.ofSeconds(10)).until(ExpectedConditions.urlContains("#/billing"));
        assertThat(driver.findElements(By.cssSelector("[data-app='guestbook']"))).as("another page").isEmpty();
        driver.get("http://" + cell.publicHost() + "/console/#/apps");
        WebElement waiting = new WebDriverWait(driver, Duration.ofSeconds(10)).until(
                ExpectedConditions.visibilityOfElementLocated(By.id("apps-waiting")));
        assertThat(waiting.getText()).startsWith("The control plane is not answering; these are your apps as of ")
                .endsWith(", and the list will refresh when it is back.");
        Instant asOf = Instant.parse(waiting.getDomAttribute("data-as-of"));
        assertThat(asOf).as("read before the outage, in this tab").isBefore(Instant.now());
        WebElement row = driver.findElement(By.cssSelector("[data-app='guestbook']"));
        assertThat(row.isDisplayed()).isTrue();
        assertThat(row.findElement(By.cssSelector("[data-open='guestbook']")).isDisplayed()).as("Open stays").isTrue();
        assertThat(row.findElement(By.cssSelector(".app-url a")).getDomAttribute("href")).as("the address stays").contains("guestbook");
        browser.screenshot(screenshots().resolve("console-outage-apps-kept.png"));

        // The app's own page, never opened in this tab: its overview from the list read before, its builds wait.
        driver.get("http://" + cell.publicHost() + "/console/#/apps/guestbook");
        WebElement app = new WebDriverWait(driver, Duration.ofSeconds(10)).until(
                ExpectedConditions.visibilityOfElementLocated(By.id("app-waiting")));
        assertThat(app.getText()).startsWith("The control plane is not answering; this is guestbook as of ")
                .endsWith(", and the page will refresh when it is back.");
        // Issue 20: the builds are on the app page's Deploys tab; its link works during the outage.
        new WebDriverWait(driver, Duration.ofSeconds(10)).until(
                ExpectedConditions.elementToBeClickable(By.cssSelector("#app-tabs [data-tab='deploys']"))).click();
        new WebDriverWait(driver, Duration.ofSeconds(10)).until(ExpectedConditions.urlContains("#/apps/guestbook/deploys"));
        assertThat(new WebDriverWait(driver, Duration.ofSeconds(10)).until(
                ExpectedConditions.visibilityOfElementLocated(By.id("builds-waiting"))).getText())
                .as("builds this tab never read").isEqualTo("The control plane is not answering; this list will load when it is back.");
        assertThat(driver.findElement(By.id("app-waiting")).getText()).startsWith("The control plane is not answering; this is guestbook as of ");
        assertThat(driver.findElement(By.id("upload-build")).isEnabled()).as("the tab's changes are held back").isFalse();
        assertThat(driver.findElement(By.id("upload-build")).getDomAttribute("title"))
                .isEqualTo("The control plane is not answering, so changes wait until it is back. What is shown stays readable.");
        browser.screenshot(screenshots().resolve("console-outage-app-kept.png"));
        driver.get("http://" + cell.publicHost() + "/console/#/apps"); // where the rest of the test looks
        new WebDriverWait(driver, Duration.ofSeconds(10)).until(ExpectedConditions.visibilityOfElementLocated(By.id("apps-waiting")));
    }

    /**
     * With the control plane still down: the console's files come from the gate; a person signed
     * out (another browser: the session is the browser's, so every tab of the first one is signed
     * in) sees the sign-in form and the banner follows; in a second tab of the first browser
     * (the first must not reload), signed in, the apps page says at once that its list waits for
     * the control plane, never a blank page or a raw error.
     */
    private static void aPersonWhoOpensTheConsoleDuringTheOutageSeesItLoadAndSaysWhy(WebDriver driver) throws Exception {
        for (String file : List.of("/console/", "/console/js/main.js", "/console/js/outage.js", "/console/console.css")) {
            HttpResponse<String> answer = cell.send(cell.request(cell.publicHost(), file).GET().build());
            assertThat(answer.statusCode()).as(file + " from the gate with the API down").isEqualTo(200);
        }
        try (Browser newcomer = new Browser(cell.var().resolve("browser"))) {
            WebDriver other = newcomer.driver;
            other.get("http://" + cell.publicHost() + "/console/");
            WebDriverWait wait = new WebDriverWait(other, Duration.ofSeconds(10));
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("email")));
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("outage-banner"), "has not answered since"));
            aPersonSigningInIsToldInAVisitorsWordsAtOnce(other, newcomer);
        }
        String first = driver.getWindowHandle();
        driver.switchTo().newWindow(WindowType.TAB);
        try {
            WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(10));
            Instant opened = Instant.now();
            driver.get("http://" + cell.publicHost() + "/console/#/apps");
            WebElement waiting = new WebDriverWait(driver, Duration.ofSeconds(5)).until(
                    ExpectedConditions.visibilityOfElementLocated(By.id("apps-waiting")));
            assertThat(Duration.between(opened, Instant.now())).as("the message comes at once").isLessThan(Duration.ofSeconds(5));
            assertThat(waiting.getText()).isEqualTo("The control plane is not answering; this list will load when it is back.");
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("outage-banner"), "has not answered since"));
            String page = driver.findElement(By.tagName("body")).getText();
            assertThat(page).contains("Your apps").contains("Create an app")
                    .doesNotContain("Exception").doesNotContain("Internal Server Error").doesNotContainPattern("\\b5\\d\\d\\b");
            assertThat(driver.findElement(By.id("create-app")).isEnabled()).as("changes held back in the new tab too").isFalse();
            browser.screenshot(screenshots().resolve("console-outage-opened-during.png"));
        } finally {
            driver.close();
            driver.switchTo().window(first);
        }
    }

    /**
     * Issue 20: people reach the console's sign-in on their way to an app, so during an outage it
     * speaks as the gate's page does, and submitting is answered at once (the gate knows the control
     * plane is failing and answers the sign-in itself), not after a wait.
     */
    private static void aPersonSigningInIsToldInAVisitorsWordsAtOnce(WebDriver driver, Browser browser) throws Exception {
        String paused = "Signing in is paused for a moment. If you already use this app, it keeps working.";
        WebElement note = new WebDriverWait(driver, Duration.ofSeconds(10)).until(
                ExpectedConditions.visibilityOfElementLocated(By.id("signin-waits")));
        assertThat(note.getText()).isEqualTo(paused);
        driver.findElement(By.id("email")).sendKeys("newcomer@example.com");
        driver.findElement(By.id("password")).sendKeys("a long enough password");
        driver.findElement(By.id("signin")).click();
        new WebDriverWait(driver, Duration.ofSeconds(5)).until(
                ExpectedConditions.textToBePresentInElementLocated(By.id("signin-msg"), "You are not signed in yet."));
        String form = driver.findElement(By.cssSelector("form")).getText();
        assertThat(form).contains(paused).doesNotContainIgnoringCase("control plane");
        browser.screenshot(screenshots().resolve("console-outage-signin.png"));
    }

    /** Issue 20 item 1: each view of the console against the real API's answers (the browser of the test before, signed in). */
    @Test
    @Order(3)
    void every_view_of_the_console_shows_what_the_api_answers() throws Exception {
        ConsoleViews.everyViewShowsWhatTheApiAnswers(cell, signedInBrowser(), demo(), screenshots());
    }

    /** Issue 20 item 4: a second tab is signed in, a sign-out ends the session in every tab, changes need the console's proof. */
    @Test
    @Order(4)
    void the_consoles_session_is_the_browsers_across_tabs_and_a_change_without_its_proof_is_refused() throws Exception {
        ConsoleTabs.theSessionIsTheBrowsersAndSigningOutEndsItInEveryTab(cell, signedInBrowser(), demo(), screenshots());
    }

    /** The browser of the outage test, or (run alone) a new one signed in as the demo person. */
    private static Browser signedInBrowser() throws Exception {
        if (browser == null) {
            browser = new Browser(cell.var().resolve("browser"));
            browser.driver.get("http://" + cell.publicHost() + "/console/");
            ConsoleTabs.signIn(browser.driver, demo());
        }
        new WebDriverWait(browser.driver, Duration.ofSeconds(30)).until(
                ExpectedConditions.visibilityOfElementLocated(By.cssSelector("[data-app='guestbook']")));
        return browser;
    }

    private static Person demo() throws Exception {
        Map<String, String> demo = cell.demoEnv();
        return Person.existing(cell, demo.get("QALDY_DEMO_EMAIL"), demo.get("QALDY_DEMO_PASSWORD"));
    }

    /** Last: it stops every process of the cell but the status page, for good. */
    @Test
    @Order(5)
    void the_status_page_answers_bad_json_with_a_400_and_loses_nothing() throws Exception {
        StatusPageInput.badJsonIsA400AndNothingIsLost(cell);
    }

    @Test
    @Order(6)
    void with_every_process_of_the_cell_stopped_the_status_page_shows_each_component_down_since_and_opens_incidents()
            throws Exception {
        if (browser != null) {
            browser.close(); // the console's tab has done its part; one Chromium at a time
            browser = null;
        }
        StatusPageWhenTheCellIsStopped.check(cell, screenshots());
    }

    static Path screenshots() {
        return cell.root().resolve("cell-tests/target/screenshots");
    }
}
