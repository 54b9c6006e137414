package dev.qaldy.gate.session;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SameOriginTest {

    @ParameterizedTest(name = "Sec-Fetch-Site {0}, Origin {1}, Host {2} → {3}")
    @CsvSource(nullValues = "-", value = {
        "same-origin, -, guestbook.qaldy.app, true",
        "none, -, guestbook.qaldy.app, true",
        "cross-site, https://guestbook.qaldy.app, guestbook.qaldy.app, false",
        "same-site, https://notes.qaldy.app, guestbook.qaldy.app, false",
        "-, https://guestbook.qaldy.app, guestbook.qaldy.app, true",
        "-, http://Guestbook.localhost:8080, guestbook.localhost:8080, true",
        "-, https://notes.qaldy.app, guestbook.qaldy.app, false",
        "-, https://guestbook.qaldy.app.evil.example, guestbook.qaldy.app, false",
        "-, null, guestbook.qaldy.app, false",
        "-, not a url, guestbook.qaldy.app, false",
        "-, -, guestbook.qaldy.app, true",
    })
    void a_sign_out_is_taken_only_from_the_apps_own_origin(String secFetchSite, String origin, String host, boolean allowed) {
        assertThat(SameOrigin.allows(secFetchSite, origin, host)).isEqualTo(allowed);
    }
}
