package dev.qaldy.cell;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.drill.console.Browser;
import jakarta.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Issue 7, test 1, on a real cell in headless Chromium: with the control plane killed, the
 * console shows the outage banner after two misses (poll shortened to 1 s through config), holds
 * back every change and keeps what it showed; with the control plane back, the banner goes and
 * the changes come back, without a reload.
 */
class ConsoleOutageIT {

    static final String MARKER = "set before the outage";

    static Cell cell;
    static Browser browser;

    @BeforeAll
    static void startCell() throws Exception {
        cell = Cell.up("console", Map.of("QALDY_OPTS_GATE", "-Dqaldy.console.poll-interval=PT1S"));
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

    @Test
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

        Instant beforeKill = Instant.now();
        cell.qaldy("stop", "control", "--kill");

        WebElement banner = new WebDriverWait(driver, Duration.ofSeconds(10)).until(
                ExpectedConditions.visibilityOfElementLocated(By.id("outage-banner")));
        new WebDriverWait(driver, Duration.ofSeconds(10)).until(
                ExpectedConditions.textToBePresentInElement(banner, "has not answered since"));
        assertThat(banner.getText())
                .contains("The control plane has not answered since")
                .contains("Apps people already opened keep working.")
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

    static Path screenshots() {
        return cell.root().resolve("cell-tests/target/screenshots");
    }
}
