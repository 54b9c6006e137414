package dev.qaldy.status.boundary;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The operator's cookie is HttpOnly and SameSite=Strict, Secure on HTTPS. */
class SessionCookieTest {

    @Test
    void setAndClear() {
        assertThat(SessionCookie.set("abc", "/", false)).isEqualTo("qaldy_status_operator=abc; Path=/; HttpOnly; SameSite=Strict");
        assertThat(SessionCookie.set("abc", "/status", true))
                .isEqualTo("qaldy_status_operator=abc; Path=/status; HttpOnly; SameSite=Strict; Secure");
        assertThat(SessionCookie.clear("/", false)).isEqualTo("qaldy_status_operator=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict");
    }
}
