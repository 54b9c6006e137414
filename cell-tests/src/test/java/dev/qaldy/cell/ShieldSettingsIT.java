package dev.qaldy.cell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.qaldy.drill.console.Browser;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
 * Issue 5's per-app shield settings end to end on a real cell: the owner sets them in the console;
 * lowers the app's daily limit and blocks a user agent through the API, the gate learns it in the background and answers
 * 429 with {@code Retry-After}; with the control plane killed the limit still holds, resets at the
 * time the gate said (the shield's "day" is shortened to {@value #DAY_SECONDS} s through config) and
 * holds again after the reset, also in a gate restarted during the outage. The owner's day zone
 * (Pacific/Kiritimati, UTC+14) reaches the gate and stays in force with the API down, on disk too: a
 * shortened day is shifted by the zone's offset scaled to its length (14 h of 24 is
 * {@value #KIRITIMATI_SHIFT_MS} ms of a {@value #DAY_SECONDS} s "day"), so each 429 counts to a
 * start of day on Kiritimati's grid, not UTC's, and names the zone.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ShieldSettingsIT {

    static final long DAY_SECONDS = 40;
    static final int PER_DAY = 3;
    static final String ZONE = "Pacific/Kiritimati";
    /** +14 h scaled to the shortened day: 14/24 of {@link #DAY_SECONDS} s. */
    static final long KIRITIMATI_SHIFT_MS = 14 * DAY_SECONDS * 1000 / 24;

    static Cell cell;
    static Person owner;

    @BeforeAll
    static void startCell() throws Exception {
        cell = Cell.up("shield", Map.of(
                "QALDY_NO_SEED", "1",
                "QALDY_OPTS_GATE", "-Dqaldy.gate.shield.refresh=PT1S -Dqaldy.gate.shield.day-length=PT" + DAY_SECONDS + "S"));
        owner = Person.signUp(cell, "shield-owner@example.com");
        owner.publish("walled", cell.root().resolve("examples/guestbook"));
        owner.openApp("walled");
    }

    @AfterAll
    static void stopCell() {
        if (cell != null) {
            cell.close();
        }
    }

    @Test
    @Order(1)
    void bad_settings_are_refused_with_a_clear_400_and_only_the_owner_may_change_them() throws Exception {
        for (String bad : List.of("{\"perAppPerDay\":0}", "{\"perAppPerDay\":\"3\"}", "{\"perAppPerDy\":3}",
                "{\"blockedUserAgents\":[\"(unclosed\"]}", "{\"deniedCidrs\":[\"example.com\"]}",
                "{\"dayZone\":\"Mars/Olympus_Mons\"}", "{\"dayZone\":\"+01:00\"}", "{\"dayZone\":\"" + "x".repeat(300) + "\"}")) {
            HttpResponse<String> refused = owner.api("PUT", "/apps/walled/shield", bad);
            assertThat(refused.statusCode()).as(bad).isEqualTo(400);
            assertThat(refused.headers().firstValue("Content-Type").orElse("")).contains("problem+json");
            assertThat(refused.body()).doesNotContain("Exception");
        }
        Person other = Person.signUp(cell, "shield-other@example.com");
        assertThat(other.api("PUT", "/apps/walled/shield", "{\"perAppPerDay\":1}").statusCode()).isEqualTo(404);
        HttpResponse<String> none = owner.api("GET", "/apps/walled/shield", null);
        assertThat(none.statusCode()).isEqualTo(200);
        assertThat(Person.json(none.body()).isNull("perAppPerDay")).as("the plan's value").isTrue();
    }

    @Test
    @Order(2)
    void the_owner_sets_the_shield_in_the_console() throws Exception {
        try (Browser browser = new Browser(cell.var().resolve("browser"))) {
            WebDriver driver = browser.driver;
            WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(30));
            driver.get("http://" + cell.publicHost() + "/console/");
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("email"))).sendKeys(owner.email);
            driver.findElement(By.id("password")).sendKeys(owner.password);
            driver.findElement(By.id("signin")).click();
            wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("[data-open='walled']")));
            driver.get("http://" + cell.publicHost() + "/console/#/apps/walled/shield"); // the app page's Shield tab (issue 20)
            WebElement perDay = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("shield-perAppPerDay")));
            perDay.clear();
            perDay.sendKeys("500");
            driver.findElement(By.id("shield-blockedUserAgents")).sendKeys("(?i)consolebot");
            driver.findElement(By.id("shield-dayZone")).sendKeys("Europe/Berlin");
            driver.findElement(By.id("shield-save")).click();
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("shield-msg"), "Saved"));
            browser.screenshot(cell.root().resolve("cell-tests/target/screenshots/shield.png"));

            // Issue 20: the audit page said "Nothing recorded yet" while the API returned entries ({entries: [...], at}).
            driver.get("http://" + cell.publicHost() + "/console/#/audit");
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("#audit-table tbody"), "walled"));
            List<WebElement> rows = driver.findElements(By.cssSelector("#audit-table tbody tr"));
            assertThat(rows).as("the audit page shows what the API holds").isNotEmpty();
            assertThat(rows).anyMatch(r -> r.getText().contains("shield") && r.getText().contains(owner.email));
            assertThat(rows.get(0).findElement(By.tagName("time")).getAttribute("datetime")).as("a time, newest first").isNotBlank();
            assertThat(driver.findElements(By.id("audit-empty"))).isEmpty();
            browser.screenshot(cell.root().resolve("cell-tests/target/screenshots/audit.png"));
        }
        HttpResponse<String> saved = owner.api("GET", "/apps/walled/shield", null);
        assertThat(Person.json(saved.body()).getJsonNumber("perAppPerDay").longValue()).isEqualTo(500);
        assertThat(saved.body()).contains("(?i)consolebot");
        assertThat(Person.json(saved.body()).getString("dayZone")).isEqualTo("Europe/Berlin");
    }

    @Test
    @Order(3)
    void a_low_daily_limit_set_through_the_api_reaches_the_gate_and_holds_with_the_control_plane_killed() throws Exception {
        assertThat(owner.get("walled", "/").statusCode()).isEqualTo(200);
        HttpResponse<String> set = owner.api("PUT", "/apps/walled/shield",
                "{\"perAppPerDay\":" + PER_DAY + ",\"blockedUserAgents\":[\"(?i)evilbot\"],\"dayZone\":\"" + ZONE + "\"}");
        assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
        assertThat(Person.json(set.body()).getJsonNumber("perAppPerDay").longValue()).isEqualTo(PER_DAY);
        assertThat(owner.api("GET", "/audit", null).body()).contains("shield").contains("perAppPerDay=" + PER_DAY)
                .contains("dayZone=" + ZONE);

        // The gate learns it within its refresh (1 s here): requests are refused once the day's 3 are spent.
        HttpResponse<String>[] limited = firstRefusal(Duration.ofSeconds(30), 1000);
        assertDailyLimit(limited[0]);
        HttpResponse<String> bot = cell.send(owner.browserRequest("gate", "walled", "/").header("User-Agent", "EvilBot/2.0").GET().build());
        assertThat(bot.statusCode()).as("the owner's blocked user agent").isEqualTo(403);
        assertThat(bot.headers().firstValue("X-Qaldy-Shield")).hasValue("bot-rule");

        cell.qaldy("stop", "control", "--kill");

        // With no API: at most the day's 3 pass (fewer if the day had begun), then 429 again.
        HttpResponse<String>[] again = firstRefusal(Duration.ofSeconds(DAY_SECONDS * 2), PER_DAY + 1);
        assertDailyLimit(again[0]);
        assertThat(owner.get("walled", "/").statusCode()).as("still refused").isEqualTo(429);

        // The reset comes at the time the gate said, and then exactly the day's 3 pass: the API's limit, not the plan's.
        long retryAfter = Long.parseLong(again[0].headers().firstValue("Retry-After").orElseThrow());
        Thread.sleep(retryAfter * 1000 + 300);
        List<Integer> afterReset = new ArrayList<>();
        for (int i = 0; i < PER_DAY + 1; i++) {
            afterReset.add(owner.get("walled", "/").statusCode());
        }
        assertThat(afterReset).as("a new day: the remembered person passes 3 times, then the limit").containsExactly(200, 200, 200, 429);
    }

    @Test
    @Order(4)
    void a_gate_restarted_during_the_outage_keeps_the_settings_it_last_knew() throws Exception {
        cell.qaldy("stop", "gate");
        cell.qaldy("start", "gate");
        // A restarted gate knows no one (503 after the shield) but still knows the owner's limit:
        // within one or two days' worth of 3 requests it refuses with the daily limit, never the plan's 100 000.
        HttpResponse<String>[] limited = firstRefusal(Duration.ofSeconds(DAY_SECONDS * 2), 2 * PER_DAY + 1);
        assertDailyLimit(limited[0]);
        HttpResponse<String> bot = cell.send(cell.request(cell.appHost("walled"), "/").header("User-Agent", "evilbot").GET().build());
        assertThat(bot.statusCode()).isEqualTo(403);
    }

    /**
     * Sends requests until the gate refuses one with 429, at most {@code maxRequests} within
     * {@code within}; fails when none is refused. Returns the refusal.
     */
    @SuppressWarnings("unchecked")
    private static HttpResponse<String>[] firstRefusal(Duration within, int maxRequests) {
        HttpResponse<String>[] refused = new HttpResponse[1];
        int[] sent = {0};
        await().atMost(within).pollInterval(Duration.ofMillis(200)).until(() -> {
            assertThat(sent[0]).as("requests before the daily limit refused one").isLessThan(maxRequests);
            sent[0]++;
            HttpResponse<String> response = owner.get("walled", "/");
            if (response.statusCode() == 429) {
                refused[0] = response;
                return true;
            }
            return false;
        });
        return refused;
    }

    /**
     * A daily 429 in the owner's zone: the page names it, and {@code Retry-After} counts to a start
     * of day on Kiritimati's grid (shifted {@value #KIRITIMATI_SHIFT_MS} ms before UTC's), not UTC's.
     * The bound is three days: each of the two zone changes lengthens the day in force by less than a day.
     */
    private static void assertDailyLimit(HttpResponse<String> response) {
        long receivedMs = System.currentTimeMillis();
        assertThat(response.statusCode()).isEqualTo(429);
        assertThat(response.body()).as("the next day's start is shown in the app's zone").contains(ZONE);
        long retry = Long.parseLong(response.headers().firstValue("Retry-After").orElseThrow());
        assertThat(response.headers().firstValue("RateLimit-Reset")).hasValue(Long.toString(retry));
        long dayMs = DAY_SECONDS * 1000;
        // Retry-After is rounded up to whole seconds and measured a moment before we got the answer.
        long offGrid = Math.floorMod(receivedMs + retry * 1000 + KIRITIMATI_SHIFT_MS, dayMs);
        long distance = Math.min(offGrid, dayMs - offGrid);
        assertThat(distance).as("the reset falls on a start of Kiritimati's day (UTC's would be %d ms off)", KIRITIMATI_SHIFT_MS)
                .isLessThanOrEqualTo(2500);
        assertThat(response.headers().firstValue("X-Qaldy-Shield")).hasValue("daily-limit");
        assertThat(response.headers().firstValue("RateLimit-Limit")).hasValue(Integer.toString(PER_DAY));
        long retryAfter = Long.parseLong(response.headers().firstValue("Retry-After").orElseThrow());
        // The app's counter opens in UTC (@BeforeAll) and its zone then changes twice (Europe/Berlin in the
        // console, Pacific/Kiritimati through the API): each change lengthens the day in force by less than a day.
        assertThat(retryAfter).as("until the shortened day ends").isBetween(1L, 3 * DAY_SECONDS);
        assertThat(response.body()).contains("daily limit");
    }
}
