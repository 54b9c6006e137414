package dev.qaldy.drill.console;

import dev.qaldy.drill.rows.Check;
import dev.qaldy.drill.rows.SeedRow;
import java.time.Duration;
import java.time.Instant;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WindowType;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A person reading the cell's status page during an outage, in a second tab of the console user's
 * browser: the page must say that sign-in and first openings are down while apps people already
 * opened keep working (its groups {@code sign-in} and {@code apps}, the seed's table as the status
 * page derives it). The tab's screenshot, {@code status-<pass>.png}, goes into the report whatever
 * the page says.
 */
public final class StatusPageWatch {

    static final String WHO = "a person reading the status page";
    private static final String EXPECTED = "“Sign-in and first opening” shown as an outage, “Apps (already opened)” as"
            + " working (operational or slow), with a sentence saying what still works";

    private final ConsoleWatch console;
    private final String statusUrl;

    /**
     * @param console   the console user whose browser opens the page (in a tab of its own, closed again)
     * @param statusUrl the status page's address, e.g. {@code http://localhost:8083/}
     */
    public StatusPageWatch(ConsoleWatch console, String statusUrl) {
        this.console = console;
        this.statusUrl = statusUrl;
    }

    /**
     * Opens the status page and waits up to {@code wait} for the groups to show the outage; the
     * check fails when they never do (the screenshot then shows what they said instead).
     */
    public Check duringOutage(String pass, Instant outageStart, Duration wait) {
        WebDriver driver = console.browser().driver;
        String consoleTab = driver.getWindowHandle();
        String shot = "status-" + pass + ".png";
        try {
            driver.switchTo().newWindow(WindowType.TAB);
            driver.get(statusUrl);
            boolean shown;
            try {
                new WebDriverWait(driver, wait).until(d -> outageShown(d));
                shown = true;
            } catch (org.openqa.selenium.TimeoutException e) {
                shown = false;
            }
            long ms = Duration.between(outageStart, Instant.now()).toMillis();
            String seen = "sign-in " + groupStatus(driver, "sign-in") + ", apps " + groupStatus(driver, "apps") + "; “"
                    + text(driver, "overall-text") + "”, “" + text(driver, "headline") + "”"
                    + (shown ? "" : " (still so after " + wait.toSeconds() + " s)");
            shot = screenshotQuietly(shot);
            return new Check(SeedRow.SIGN_IN, Check.DURING, WHO, EXPECTED, seen, ms, shown, shot);
        } catch (RuntimeException e) {
            return new Check(SeedRow.SIGN_IN, Check.DURING, WHO, EXPECTED, "the status page did not open at " + statusUrl
                    + " (" + e.getClass().getSimpleName() + ")", -1, false, screenshotQuietly(shot));
        } finally {
            if (driver.getWindowHandles().size() > 1) {
                driver.close();
            }
            driver.switchTo().window(consoleTab);
        }
    }

    private static boolean outageShown(WebDriver driver) {
        return groupStatus(driver, "sign-in").endsWith("_outage") && java.util.Set.of("operational", "degraded_performance").contains(groupStatus(driver, "apps"))
                && !text(driver, "headline").isEmpty();
    }

    /**
     * A group's {@code data-status}, read in one script: the status page re-renders its list on every
     * refresh, so an element found first and read after could be gone (StaleElementReferenceException,
     * which failed the Liberty drill's status-page check in the clean-clone run of 2ec2d33).
     */
    private static String groupStatus(WebDriver driver, String group) {
        Object status = ((JavascriptExecutor) driver).executeScript(
                "var e = document.querySelector(\"li.group[data-group='\" + arguments[0] + \"']\");"
                        + " return e ? e.getAttribute('data-status') : null;", group);
        return status == null ? "not shown" : status.toString();
    }

    /** The text of the element with this id (one script, as {@link #groupStatus}); empty when there is none. */
    private static String text(WebDriver driver, String id) {
        Object text = ((JavascriptExecutor) driver).executeScript(
                "var e = document.getElementById(arguments[0]); return e ? e.innerText : '';", id);
        return text == null ? "" : text.toString().replaceAll("\\s+", " ").strip();
    }

    private String screenshotQuietly(String name) {
        try {
            console.browser().screenshot(console.out().resolve(name));
            return name;
        } catch (Exception e) {
            return null;
        }
    }
}
