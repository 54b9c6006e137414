package dev.qaldy.gate.routing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class HostRouterTest {

    private final HostRouter router = new HostRouter("localhost", "localhost");

    @ParameterizedTest(name = "{0} -> app {1}")
    @CsvSource({
        "guestbook.localhost:8080, guestbook",
        "guestbook.localhost, guestbook",
        "GUESTBOOK.localhost, guestbook",
        "GuestBook.LOCALHOST:8080, guestbook",
        "my-app-2.localhost:80, my-app-2",
        "a.localhost, a",
        "0.localhost:65535, 0",
        "'  guestbook.localhost:8080 ', guestbook",
    })
    void appOrigins(String host, String app) {
        assertThat(router.route(host)).isEqualTo(new HostRoute.App(app));
    }

    @ParameterizedTest
    @ValueSource(strings = {"localhost", "localhost:8080", "LOCALHOST:8080", "localhost:1"})
    void publicOrigin(String host) {
        assertThat(router.route(host)).isInstanceOf(HostRoute.Public.class);
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {
        "   ",
        "guestbook.localhost.",            // trailing dot
        "guestbook.localhost.:8080",
        "localhost.",
        "a.b.localhost",                   // nested subdomain
        "a.b.localhost:8080",
        ".localhost",                      // empty label
        "..localhost",
        "-guestbook.localhost",            // label starts with '-'
        "guestbook-.localhost",
        "guest_book.localhost",            // bad character
        "guest book.localhost",
        "guestbook.localhost:8080@evil",   // user-info / port trick
        "guestbook.localhost@evil.com",
        "evil.com",
        "evil.com:8080",
        "guestbook.evil.com",
        "guestbook.localhost.evil.com",
        "localhost.evil.com",
        "evillocalhost",                   // suffix without the dot
        "guestbooklocalhost:8080",
        "127.0.0.1",                       // IP literals
        "127.0.0.1:8080",
        "guestbook.127.0.0.1",
        "[::1]:8080",
        "[::1]",
        "guestbook.localhost:",            // empty, bad or too large port
        "guestbook.localhost:80:80",
        "guestbook.localhost:99999",
        "guestbook.localhost:8o80",
        "guestbook.localhost:-1",
        "guestbook%2elocalhost",
        "guestbook.localhost/evil",
        "guestbook.localhost\\evil",
    })
    void badHosts(String host) {
        assertThat(router.route(host)).isInstanceOf(HostRoute.Bad.class);
    }

    @Test
    void labelsLongerThan63AreRefused() {
        assertThat(router.route("a".repeat(63) + ".localhost")).isEqualTo(new HostRoute.App("a".repeat(63)));
        assertThat(router.route("a".repeat(64) + ".localhost")).isInstanceOf(HostRoute.Bad.class);
        assertThat(router.route("a".repeat(300) + ".localhost")).isInstanceOf(HostRoute.Bad.class);
    }

    @Test
    void publicHostAndBaseDomainMayDiffer() {
        HostRouter production = new HostRouter("qaldy.example.com", "apps.example.com");
        assertThat(production.route("qaldy.example.com")).isInstanceOf(HostRoute.Public.class);
        assertThat(production.route("guestbook.apps.example.com")).isEqualTo(new HostRoute.App("guestbook"));
        assertThat(production.route("apps.example.com")).isInstanceOf(HostRoute.Bad.class);
        assertThat(production.route("guestbook.localhost")).isInstanceOf(HostRoute.Bad.class);
        assertThat(production.route("localhost")).isInstanceOf(HostRoute.Bad.class);
    }
}
