package dev.qaldy.drill.console;

import dev.qaldy.drill.rows.Check;
import dev.qaldy.drill.rows.SeedRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console user of the drill: a headless Chromium signed in to the console before the outage,
 * left open on the apps list (as a person leaves a tab open). During the outage it waits for the
 * banner, checks that every control that changes something is disabled and that what was shown
 * stays, and saves a screenshot; after the return it waits for the banner to go, without a reload.
 */
public final class ConsoleWatch implements AutoCloseable {

    static final String WHO = "a console user (a tab left open, signed in)";
    private static final String MARKER = "drill: set before the outage";

    private final Browser browser;
    private final Path out;
    private final String app;

    private ConsoleWatch(Browser browser, Path out, String app) {
        this.browser = browser;
        this.out = out;
        this.app = app;
    }

    /**
     * Signs in to the console at {@code consoleUrl} in a fresh headless Chromium and waits for
     * {@code app} in the list. Fails (an exception with the reason) when Chromium or chromedriver
     * is missing or the sign-in does not show the app within 60 s.
     */
    public static ConsoleWatch open(String consoleUrl, String email, String password, String app, Path out) throws Exception {
        if (!Files.isExecutable(Path.of("/usr/bin/chromium")) || !Files.isExecutable(Path.of("/usr/bin/chromedriver"))) {
            throw new IllegalStateException("no headless Chromium: apt-get install chromium chromium-driver");
        }
        Browser browser = new Browser(out.resolve("chromium"));
        try {
            WebDriver driver = browser.driver;
            WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(60));
            driver.get(consoleUrl);
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("email"))).sendKeys(email);
            driver.findElement(By.id("password")).sendKeys(password);
            driver.findElement(By.id("signin")).click();
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("[data-app='" + app + "']")));
            return new ConsoleWatch(browser, out, app);
        } catch (Exception | Error e) {
            browser.close();
            throw e;
        }
    }

    /** Marks the page (a script variable a reload would lose) and checks no banner shows yet. */
    public void beforeOutage() {
        ((JavascriptExecutor) browser.driver).executeScript("window.qaldyDrillMarker = arguments[0];", MARKER);
        ((JavascriptExecutor) browser.driver).executeScript("window.scrollTo(0, 0);");
    }

    /**
     * Waits up to {@code wait} for the outage banner; the check passes when it says since when
     * the control plane has not answered, that apps keep working and changes wait, and every
     * control that changes something is disabled while the app list stays. Screenshot:
     * {@code console-<pass>.png} next to the report.
     */
    public Check duringOutage(String pass, Instant outageStart, Duration wait) {
        String expected = "within two polls: a banner “The control plane has not answered since …”, changes disabled, the"
                + " page's content kept";
        WebDriver driver = browser.driver;
        try {
            WebElement banner = new WebDriverWait(driver, wait).until(
                    ExpectedConditions.visibilityOfElementLocated(By.id("outage-banner")));
            new WebDriverWait(driver, Duration.ofSeconds(10)).until(
                    ExpectedConditions.textToBePresentInElement(banner, "has not answered since"));
            long ms = Duration.between(outageStart, Instant.now()).toMillis();
            String text = banner.getText().replaceAll("\\s+", " ").strip();
            List<WebElement> changes = driver.findElements(By.cssSelector("[data-change], #create-app"));
            long enabled = changes.stream().filter(WebElement::isEnabled).count();
            boolean listed = driver.findElement(By.cssSelector("[data-app='" + app + "']")).isDisplayed();
            String shot = screenshot("console-" + pass + ".png");
            boolean passed = text.contains("has not answered since") && text.contains("keep working") && enabled == 0
                    && !changes.isEmpty() && listed;
            return new Check(SeedRow.CONSOLE, Check.DURING, WHO, expected, "banner after " + ms + " ms: “" + text + "”; "
                    + (changes.size() - enabled) + " of " + changes.size() + " change controls disabled; app list "
                    + (listed ? "kept" : "gone"), ms, passed, shot);
        } catch (Exception e) {
            String shot = screenshotQuietly("console-" + pass + ".png");
            return new Check(SeedRow.CONSOLE, Check.DURING, WHO, expected, "no banner within " + wait.toSeconds() + " s ("
                    + e.getClass().getSimpleName() + ")", -1, false, shot);
        }
    }

    /** Waits up to {@code wait} for the banner to go and the changes to come back, without a reload. */
    public Check afterReturn(String pass, Instant returned, Duration wait) {
        String expected = "the banner goes and the controls come back, without a reload";
        WebDriver driver = browser.driver;
        try {
            new WebDriverWait(driver, wait).until(ExpectedConditions.invisibilityOfElementLocated(By.id("outage-banner")));
            new WebDriverWait(driver, Duration.ofSeconds(15)).until(ExpectedConditions.elementToBeClickable(By.id("create-app")));
            long ms = Duration.between(returned, Instant.now()).toMillis();
            Object marker = ((JavascriptExecutor) driver).executeScript("return window.qaldyDrillMarker;");
            boolean noReload = MARKER.equals(marker);
            String shot = screenshot("console-" + pass + "-back.png");
            return new Check(SeedRow.CONSOLE, Check.AFTER, WHO, expected, "banner gone " + ms + " ms after the return; "
                    + (noReload ? "same page (no reload)" : "the page was reloaded"), ms, noReload, shot);
        } catch (Exception e) {
            String shot = screenshotQuietly("console-" + pass + "-back.png");
            return new Check(SeedRow.CONSOLE, Check.AFTER, WHO, expected, "the banner stayed for " + wait.toSeconds() + " s ("
                    + e.getClass().getSimpleName() + ")", -1, false, shot);
        }
    }

    /** The browser this console user works in (for another tab of the same person). */
    Browser browser() {
        return browser;
    }

    /** The report's folder, where screenshots go. */
    Path out() {
        return out;
    }

    private String screenshot(String name) throws java.io.IOException {
        browser.screenshot(out.resolve(name));
        return name;
    }

    private String screenshotQuietly(String name) {
        try {
            return screenshot(name);
        } catch (Exception e) {
            return null;
        }
    }

    /** Ends Chromium and chromedriver and deletes the browser profile (megabytes) from the report folder. */
    @Override
    public void close() {
        try {
            browser.close();
        } finally {
            deleteTree(out.resolve("chromium"));
        }
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (java.io.IOException e) {
            // a profile left behind is untidy, not wrong
        }
    }
}
