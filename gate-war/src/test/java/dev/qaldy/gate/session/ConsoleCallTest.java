package dev.qaldy.gate.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConsoleCallTest {

    static final String HOST = "localhost:8080";
    static final String SELF = "http://localhost:8080";

    private static ConsoleCall judge(String method, String path, String authorization, String cookie, String csrf,
            String mode, String fetchSite, String origin) {
        return ConsoleCall.of(new ConsoleCall.Request(method, path, authorization, cookie == null ? List.of() : List.of(cookie),
                csrf, mode, fetchSite, origin, HOST), false);
    }

    @ParameterizedTest(name = "{0} {1}, Authorization {2}, cookie {3}, CSRF {4}, Sec-Fetch-Site {5}, Origin {6} → {7}")
    @CsvSource(nullValues = "-", value = {
        // scripts and the CLI: whatever they send is theirs, never checked
        "POST,   /api/v1/apps,             Bearer s, qaldy_console=t, -, cross-site,  http://evil.example, AsSent",
        "DELETE, /api/v1/apps/a,           Bearer s, -,               -, -,           -,                   AsSent",
        // no console cookie: nothing to defend
        "POST,   /api/v1/apps,             -,        theme=dark,      -, cross-site,  http://evil.example, AsSent",
        "POST,   /api/v1/people,           -,        -,               -, -,           -,                   AsSent",
        // reads with the cookie need no proof (SameSite=Strict, and GET changes nothing)
        "GET,    /api/v1/apps,             -,        qaldy_console=t, -, same-origin, -,                   WithCookie",
        "HEAD,   /api/v1/apps,             -,        qaldy_console=t, -, -,           -,                   WithCookie",
        // changes with the cookie: the console's header and its own origin
        "POST,   /api/v1/apps,             -,        qaldy_console=t, 1, same-origin, " + SELF + ", WithCookie",
        "PUT,    /api/v1/billing/cap,      -,        qaldy_console=t, 1, -,           " + SELF + ", WithCookie",
        "PATCH,  /api/v1/apps/a,           -,        qaldy_console=t, 1, same-origin, -,                   WithCookie",
        "POST,   /api/v1/apps,             -,        qaldy_console=t, -, same-origin, " + SELF + ", Refused",
        "POST,   /api/v1/apps,             -,        qaldy_console=t, ' ', same-origin, " + SELF + ", Refused",
        "POST,   /api/v1/apps,             -,        qaldy_console=t, 1, cross-site,  http://evil.example, Refused",
        "POST,   /api/v1/apps,             -,        qaldy_console=t, 1, same-site,   http://app.localhost:8080, Refused",
        "DELETE, /api/v1/apps/a,           -,        qaldy_console=t, 1, -,           http://evil.example, Refused",
        "DELETE, /api/v1/apps/a,           -,        qaldy_console=t, 1, -,           null,                Refused",
        "POST,   /api/v1/tickets,          -,        qaldy_console=t, -, cross-site,  http://evil.example, Refused",
    })
    void aChangeWithTheConsolesCookieNeedsTheConsolesProof(String method, String path, String authorization, String cookie,
            String csrf, String fetchSite, String origin, String expected) {
        assertThat(judge(method, path, authorization, cookie, csrf, null, fetchSite, origin).getClass().getSimpleName())
                .isEqualTo(expected);
    }

    @Test
    void theCookiesTokenGoesUpstreamAndTheSignOutEndsTheCookieWhateverTheAnswer() {
        ConsoleCall.WithCookie read = (ConsoleCall.WithCookie) judge("GET", "/api/v1/apps", null, "qaldy_console=tok", null, null,
                "same-origin", null);
        assertThat(read.token()).isEqualTo("tok");
        assertThat(read.clearsOn(200)).isFalse();
        assertThat(read.clearsOn(401)).as("the API refused the token: the cookie is dead").isTrue();

        ConsoleCall.WithCookie out = (ConsoleCall.WithCookie) judge("DELETE", "/api/v1/sessions/current", null, "qaldy_console=tok",
                "1", null, "same-origin", SELF);
        assertThat(out.signOut()).isTrue();
        assertThat(out.clearsOn(503)).as("signed out in this browser even while the API is away").isTrue();

        ConsoleCall.WithCookie again = (ConsoleCall.WithCookie) judge("POST", "/api/v1/sessions", null, "qaldy_console=tok",
                "1", null, "same-origin", SELF);
        assertThat(again.clearsOn(401)).as("a wrong password is not a dead cookie").isFalse();
    }

    @Test
    void theSignInForTheCookieComesFromTheConsolesOwnOriginOnly() {
        assertThat(judge("POST", "/api/v1/sessions", null, null, "1", "cookie", "same-origin", SELF)).isInstanceOf(ConsoleCall.SignIn.class);
        assertThat(judge("POST", "/api/v1/sessions", null, "qaldy_console=old", "1", "Cookie", "same-origin", SELF))
                .as("a new sign-in replaces the cookie").isInstanceOf(ConsoleCall.SignIn.class);
        assertThat(judge("POST", "/api/v1/sessions", null, null, "1", "cookie", "cross-site", "http://evil.example"))
                .isInstanceOf(ConsoleCall.Refused.class);
        assertThat(judge("POST", "/api/v1/sessions", null, null, null, null, null, null))
                .as("a script's sign-in gets its token as ever").isInstanceOf(ConsoleCall.AsSent.class);
        assertThat(judge("GET", "/api/v1/sessions", null, null, null, "cookie", null, null)).isInstanceOf(ConsoleCall.AsSent.class);
    }

    @Test
    void onHttpsOnlyTheHostPrefixedCookieIsTheConsoles() {
        ConsoleCall call = ConsoleCall.of(new ConsoleCall.Request("POST", "/api/v1/apps", null, List.of("qaldy_console=planted"),
                null, null, "cross-site", "https://evil.example", HOST), true);
        assertThat(call).as("a cookie without the prefix is no session there").isInstanceOf(ConsoleCall.AsSent.class);
    }
}
