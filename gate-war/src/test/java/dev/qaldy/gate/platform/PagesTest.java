package dev.qaldy.gate.platform;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import org.junit.jupiter.api.Test;

class PagesTest {

    @Test
    void htmlHasTheTitleAndTheSentenceEscaped() {
        String html = Pages.html(Page.forbidden("<script>alert('x')</script>@example.com"));
        assertThat(html).contains("<title>You don&#39;t have access to this app · Qaldy</title>")
                .contains("<h1>You don&#39;t have access to this app</h1>")
                .contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;@example.com")
                .doesNotContain("<script>")
                .contains("403");
    }

    @Test
    void linksAreEscapedToo() {
        String html = Pages.html(Page.badTicket().withLink("http://localhost:8080/console/#/open/a?return=%2F\"x", "Open a again"));
        assertThat(html).contains("href=\"http://localhost:8080/console/#/open/a?return=%2F&quot;x\"").contains(">Open a again</a>");
    }

    @Test
    void problemJsonFollowsRfc9457() {
        JsonObject json = Json.createReader(new StringReader(Pages.problemJson(Page.unavailable()))).readObject();
        assertThat(json.getString("type")).isEqualTo("urn:qaldy:problem:temporarily-unavailable");
        assertThat(json.getString("title")).isEqualTo("Temporarily unavailable");
        assertThat(json.getInt("status")).isEqualTo(503);
        assertThat(json.getString("detail")).isEqualTo(Page.SIGN_IN_PAUSED);
    }

    /** Issue 20: the pages a visitor of an app can meet speak a visitor's words, never the cell's inner parts. */
    @Test
    void noPageAVisitorMeetsNamesTheControlPlane() {
        for (Page page : visitorPages()) {
            assertThat(Pages.html(page)).as(page.type()).doesNotContainIgnoringCase("control plane")
                    .doesNotContainIgnoringCase("runtime host").doesNotContain("Try again</a>");
        }
        assertThat(Page.unavailable().sentence())
                .isEqualTo("Signing in is paused for a moment. If you already use this app, it keeps working.");
    }

    @Test
    void pagesWithNowhereToGoLinkHome() {
        assertThat(Pages.html(Page.noRoute("/"))).contains("<a href=\"/\">Go to the home page</a>");
        assertThat(Pages.html(Page.unknownApp("nosuch", "http://localhost:8080/console/")))
                .contains("There is no app called nosuch here. Check the address")
                .contains("<a href=\"http://localhost:8080/console/\">Go to Qaldy&#39;s home page</a>");
    }

    static Page[] visitorPages() {
        return new Page[] {Page.badHost(), Page.badPath(), Page.badTicket(), Page.unauthorized(),
            Page.forbidden("a@b.c"), Page.unknownApp("x", "/console/"), Page.noRoute("/"), Page.methodNotAllowed(),
            Page.tooLarge(10), Page.internalError("ref"), Page.appUnreachable(), Page.unavailable(), Page.apiUnavailable(),
            Page.gatewayTimeout(), Page.signedOut("x"), Page.signedOutHereOnly("x"), Page.methodNotAllowedByShield(),
            Page.uriTooLong(), Page.headersTooLarge(), Page.blockedByShield("guestbook", "it has no User-Agent header"),
            Page.tooManyRequests("guestbook", 1), Page.dailyLimitReached("guestbook", "2025-06-02 00:00 UTC"),
            Page.asleep("guestbook", java.time.Instant.EPOCH), Page.signOutNeedsPost("x"), Page.crossSiteSignOut("x")};
    }

    @Test
    void everyGatePageHasAClearTitleAndOneOrTwoSentences() {
        for (Page page : new Page[] {Page.badHost(), Page.badPath(), Page.badTicket(), Page.unauthorized(),
            Page.forbidden("a@b.c"), Page.unknownApp("x", "/"), Page.noRoute("/"), Page.methodNotAllowed(), Page.tooLarge(10),
            Page.internalError("ref"), Page.appUnreachable(), Page.unavailable(), Page.apiUnavailable(),
            Page.gatewayTimeout(), Page.signedOut("x"), Page.serviceUnauthorized(), Page.badRequest("Bad."),
            Page.methodNotAllowedByShield(), Page.uriTooLong(), Page.headersTooLarge(),
            Page.blockedByShield("guestbook", "it has no User-Agent header"), Page.blockedByShield(null, "reasons"),
            Page.tooManyRequests("guestbook", 1), Page.tooManyRequests(null, 30),
            Page.dailyLimitReached("guestbook", "2025-06-02 00:00 UTC")}) {
            assertThat(page.title()).isNotBlank();
            assertThat(page.sentence()).endsWith(".");
            assertThat(Character.isUpperCase(page.sentence().charAt(0))).as(page.sentence()).isTrue();
            assertThat(page.sentence().chars().filter(c -> c == '.').count())
                    .as(page.sentence()).isLessThanOrEqualTo(3); // one sentence; dots in emails and names allowed
        }
    }

    @Test
    void theShieldsPagesSayWhoseLimitItIs() {
        assertThat(Page.blockedByShield("guestbook", "your network address is on the shield's deny list"))
                .extracting(Page::status, Page::type, Page::title)
                .containsExactly(403, "blocked-by-shield", "Blocked by the app's shield");
        assertThat(Page.blockedByShield("guestbook", "x").sentence()).contains("ask the owner of guestbook");
        assertThat(Page.blockedByShield(null, "x").title()).isEqualTo("Blocked by Qaldy's shield");
        assertThat(Page.tooManyRequests("guestbook", 1).sentence()).contains("guestbook").contains("wait 1 second and");
        assertThat(Page.tooManyRequests(null, 5).sentence()).contains("Qaldy's API").contains("wait 5 seconds");
        assertThat(Page.tooManyRequests(null, 5).status()).isEqualTo(429);
        assertThat(Page.dailyLimitReached("guestbook", "2025-06-02 00:00 UTC"))
                .extracting(Page::status, Page::type).containsExactly(429, "daily-limit-reached");
        assertThat(Page.uriTooLong().status()).isEqualTo(414);
        assertThat(Page.headersTooLarge().status()).isEqualTo(431);
    }
}
