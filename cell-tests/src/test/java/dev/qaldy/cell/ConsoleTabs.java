package dev.qaldy.cell;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.drill.console.Browser;
import jakarta.json.JsonObject;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WindowType;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Issue 20 item 4, in Chromium on a real cell: the console's session is the browser's (a second
 * tab is signed in), signing out in one tab shows every other tab the sign-in within a second and
 * the token no longer works, what each tab kept of the API's answers is gone, and a change made
 * with the session's cookie without the console's proof, or from another site, is refused (403)
 * while scripts with {@code Authorization: Bearer} work as ever.
 */
final class ConsoleTabs {

    /** What the gate answers a change with the console's cookie that is not the console's (Page.crossSiteChange). */
    static final String REFUSED = "This change did not come from the Qaldy console's own page, so nothing was changed.";

    private ConsoleTabs() {
    }

    /** With {@code browser} signed in as {@code demo} in its one tab, on {@code #/apps}. */
    static void theSessionIsTheBrowsersAndSigningOutEndsItInEveryTab(Cell cell, Browser browser, Person demo, Path screenshots)
            throws Exception {
        WebDriver driver = browser.driver;
        JavascriptExecutor js = (JavascriptExecutor) driver;
        String console = "http://" + cell.publicHost() + "/console/";
        driver.get(console + "#/apps");
        ConsoleViews.visible(driver, By.cssSelector("[data-app='guestbook']"));

        Cookie cookie = driver.manage().getCookieNamed("qaldy_console");
        assertThat(cookie).as("the console's session cookie").isNotNull();
        assertThat(cookie.isHttpOnly()).isTrue();
        assertThat(cookie.getSameSite()).isEqualTo("Strict");
        assertThat(cookie.getPath()).isEqualTo("/");
        assertThat(cookie.getDomain()).as("host-only: no Domain attribute, so apps' origins never get it").isEqualTo("localhost");
        String storage = (String) js.executeScript("return JSON.stringify(localStorage) + JSON.stringify(sessionStorage);");
        assertThat(storage).as("no script of the page holds the token").doesNotContain(cookie.getValue());

        theSignInSetsTheCookieAndKeepsTheTokenOutOfThePage(cell);
        aChangeWithTheCookieButWithoutTheConsolesProofIsRefused(cell, driver, demo, cookie.getValue());

        String first = driver.getWindowHandle();
        driver.switchTo().newWindow(WindowType.TAB);
        String second = driver.getWindowHandle();
        try {
            driver.get(console + "#/apps");
            ConsoleViews.visible(driver, By.cssSelector("[data-app='guestbook']"));
            assertThat(driver.findElements(By.id("email"))).as("a new tab asks for no password").isEmpty();
            assertThat(driver.findElement(By.id("me-email")).getText()).isEqualTo(demo.email);
            browser.screenshot(screenshots.resolve("console-second-tab.png"));

            // The first tab watches for the sign-in form; the second signs out.
            driver.switchTo().window(first);
            driver.get(console + "#/apps/guestbook");
            ConsoleViews.visible(driver, By.id("live-version"));
            assertThat(keptKeys(js)).as("the first tab kept the API's answers").isNotEmpty();
            js.executeScript("window.qaldySignInShownAt = null; new MutationObserver(function () {"
                    + " if (!window.qaldySignInShownAt && document.getElementById('email')) { window.qaldySignInShownAt = Date.now(); }"
                    + " }).observe(document.getElementById('main'), { childList: true, subtree: true });");
            driver.switchTo().window(second);
            long clickedAt = ((Number) js.executeScript("var t = Date.now(); document.getElementById('signout').click(); return t;")).longValue();
            new WebDriverWait(driver, Duration.ofSeconds(10)).until(ExpectedConditions.visibilityOfElementLocated(By.id("email")));
            assertThat(driver.findElement(By.id("flash")).getText()).isEqualTo("You are signed out.");

            driver.switchTo().window(first);
            new WebDriverWait(driver, Duration.ofSeconds(5)).until(ExpectedConditions.visibilityOfElementLocated(By.id("email")));
            long shownAt = ((Number) js.executeScript("return window.qaldySignInShownAt;")).longValue();
            assertThat(shownAt - clickedAt).as("ms from the sign-out in one tab to the sign-in in the other").isBetween(0L, 1000L);
            assertThat(driver.findElement(By.id("flash")).getText()).isEqualTo("Your session ended in another tab. Sign in again to continue.");
            assertThat(driver.getCurrentUrl()).as("back to the app after signing in").contains("#/signin?next=");
            assertThat(keptKeys(js)).as("what the first tab kept is gone").isEmpty();
            assertThat(driver.findElement(By.id("nav")).isDisplayed()).isFalse();
            browser.screenshot(screenshots.resolve("console-signed-out-in-another-tab.png"));
            driver.switchTo().window(second);
            assertThat(keptKeys(js)).isEmpty();

            assertThat(driver.manage().getCookieNamed("qaldy_console")).as("the gate cleared the cookie").isNull();
            HttpResponse<String> replayed = withCookie(cell, "GET", "/apps", cookie.getValue(), Map.of());
            assertThat(replayed.statusCode()).as("the signed-out token replayed: " + replayed.body()).isEqualTo(401);

            // Signing in again in one tab brings the other, on its sign-in form, to where it was going.
            driver.switchTo().window(first);
            signIn(driver, demo);
            new WebDriverWait(driver, Duration.ofSeconds(15)).until(ExpectedConditions.urlContains("#/apps/guestbook"));
            ConsoleViews.visible(driver, By.id("live-version"));
            driver.switchTo().window(second);
            ConsoleViews.visible(driver, By.cssSelector("[data-app='guestbook']"));
        } finally {
            if (driver.getWindowHandles().contains(second)) {
                driver.switchTo().window(second);
                driver.close();
            }
            driver.switchTo().window(first);
        }
    }

    /** The console's sign-in, as the console sends it: the cookie's attributes; the answer has no token. */
    private static void theSignInSetsTheCookieAndKeepsTheTokenOutOfThePage(Cell cell) throws Exception {
        Map<String, String> demo = cell.demoEnv();
        HttpResponse<String> signIn = cell.send(cell.request(cell.publicHost(), "/api/v1/sessions")
                .header("Content-Type", "application/json").header("Accept", "application/json")
                .header("X-Qaldy-Session", "cookie").header("X-Qaldy-CSRF", "1").header("Sec-Fetch-Site", "same-origin")
                .header("Origin", "http://" + cell.publicHost())
                .POST(HttpRequest.BodyPublishers.ofString("{\"email\":\"" + demo.get("QALDY_DEMO_EMAIL") + "\",\"password\":\""
                        + demo.get("QALDY_DEMO_PASSWORD") + "\"}")).build());
        assertThat(signIn.statusCode()).as(signIn.body()).isEqualTo(201);
        JsonObject answer = Person.json(signIn.body());
        assertThat(answer.containsKey("token")).as("the token stays in the cookie: " + answer).isFalse();
        assertThat(answer.getString("session")).isEqualTo("cookie");
        String setCookie = signIn.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("qaldy_console=")).findFirst()
                .orElseThrow();
        assertThat(setCookie).contains("; Path=/;", "; HttpOnly", "; SameSite=Strict").doesNotContainIgnoringCase("Domain=");
        long maxAge = Long.parseLong(setCookie.replaceAll(".*Max-Age=(\\d+).*", "$1"));
        long lifetime = java.time.Duration.between(java.time.Instant.now(), java.time.Instant.parse(answer.getString("expiresAt"))).getSeconds();
        assertThat(maxAge).as("the cookie lives as long as the token").isBetween(lifetime - 60, lifetime + 60);
        // That session is only this test's: signed out again with its own cookie and proof.
        String token = setCookie.substring("qaldy_console=".length(), setCookie.indexOf(';'));
        HttpResponse<String> out = withCookie(cell, "DELETE", "/sessions/current", token,
                Map.of("X-Qaldy-CSRF", "1", "Origin", "http://" + cell.publicHost()));
        assertThat(out.statusCode()).as(out.body()).isEqualTo(204);
        assertThat(out.headers().allValues("Set-Cookie")).anySatisfy(c -> assertThat(c).startsWith("qaldy_console=;").contains("Max-Age=0"));
    }

    /**
     * A same-origin script without the header (in the browser), and another site's POST with the
     * cookie (an app under the same site; a page elsewhere), with or without the header: 403, with
     * the sentence; nothing is created. Reads with the cookie and a script's Bearer calls pass.
     */
    private static void aChangeWithTheCookieButWithoutTheConsolesProofIsRefused(Cell cell, WebDriver driver, Person demo,
            String token) throws Exception {
        Object inPage = ((JavascriptExecutor) driver).executeAsyncScript("var done = arguments[arguments.length - 1];"
                + "fetch('/api/v1/apps', { method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json',"
                + " 'Accept': 'application/json' }, body: JSON.stringify({ name: 'csrf-probe-page' }) })"
                + ".then(function (r) { return r.json().then(function (j) { done([r.status, j.detail || '']); }); })"
                + ".catch(function (e) { done([0, String(e)]); });");
        assertThat((List<Object>) inPage).as("a POST of the page without X-Qaldy-CSRF").containsExactly(403L, REFUSED
                + " Make it from the console, or from a script that sends an Authorization: Bearer token.");

        String app = "http://" + cell.appHost("guestbook");
        for (Map<String, String> headers : List.of(
                Map.of("Origin", app, "Sec-Fetch-Site", "same-site"),
                Map.of("Origin", "https://attacker.example", "Sec-Fetch-Site", "cross-site"),
                Map.of("Origin", "https://attacker.example", "Sec-Fetch-Site", "cross-site", "X-Qaldy-CSRF", "1"),
                Map.of("Origin", app, "X-Qaldy-CSRF", "1"))) {
            HttpResponse<String> refused = withCookie(cell, "POST", "/apps", token, headers, "{\"name\":\"csrf-probe\"}");
            assertThat(refused.statusCode()).as("a POST with the cookie and " + headers).isEqualTo(403);
            assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
            JsonObject problem = Person.json(refused.body());
            assertThat(problem.getString("type")).isEqualTo("urn:qaldy:problem:cross-site-request");
            assertThat(problem.getString("detail")).startsWith(REFUSED);
        }
        HttpResponse<String> read = withCookie(cell, "GET", "/apps", token, Map.of("Sec-Fetch-Site", "same-origin"));
        assertThat(read.statusCode()).as("a read with the cookie needs no proof").isEqualTo(200);
        assertThat(read.body()).contains("\"guestbook\"").doesNotContain("csrf-probe");
        HttpResponse<String> script = cell.send(cell.request(cell.publicHost(), "/api/v1/apps").header("Accept", "application/json")
                .header("Authorization", "Bearer " + demo.token()).header("Origin", "https://attacker.example")
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"bearer-probe\"}")).build());
        assertThat(script.statusCode()).as("a script's Bearer call, from anywhere, no proof needed: " + script.body()).isEqualTo(201);
        assertThat(demo.api("DELETE", "/apps/bearer-probe", null).statusCode()).isIn(200, 204);
    }

    private static HttpResponse<String> withCookie(Cell cell, String method, String path, String token, Map<String, String> headers)
            throws Exception {
        return withCookie(cell, method, path, token, headers, null);
    }

    private static HttpResponse<String> withCookie(Cell cell, String method, String path, String token, Map<String, String> headers,
            String json) throws Exception {
        HttpRequest.Builder request = cell.request(cell.publicHost(), "/api/v1" + path).header("Accept", "application/json")
                .header("Cookie", "qaldy_console=" + token);
        headers.forEach(request::header);
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        return cell.send(request.method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(json)).build());
    }

    /** Signs in on the console's form in the current tab. */
    static void signIn(WebDriver driver, Person person) {
        WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(30));
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("email"))).sendKeys(person.email);
        driver.findElement(By.id("password")).sendKeys(person.password);
        driver.findElement(By.id("signin")).click();
    }

    @SuppressWarnings("unchecked")
    private static List<String> keptKeys(JavascriptExecutor js) {
        return (List<String>) js.executeScript(
                "return Object.keys(sessionStorage).filter(function (k) { return k.indexOf('qaldy.kept.') === 0; });");
    }
}
