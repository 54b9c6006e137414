package dev.qaldy.status.operators.control;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Cross-site requests are refused by what the browser says about them. */
class SameOriginTest {

    @ParameterizedTest(name = "Origin {0}, Sec-Fetch-Site {1}, Host {2} -> {3}")
    @CsvSource(nullValues = "NIL", value = {
            "http://localhost:8090, same-origin, localhost:8090, true",
            "http://LOCALHOST:8090, NIL, localhost:8090, true",
            "NIL, NIL, localhost:8090, true",                       // curl and tests: cookie and token still needed
            "NIL, none, localhost:8090, true",                       // typed into the address bar
            "https://status.example.org, same-origin, status.example.org, true",
            "http://evil.example, cross-site, localhost:8090, false",
            "http://evil.example, NIL, localhost:8090, false",
            "http://localhost:8080, same-site, localhost:8090, false",  // the cell's gate on the same host
            "http://localhost:8091, NIL, localhost:8090, false",
            "NIL, cross-site, localhost:8090, false",
            "NIL, same-site, localhost:8090, false",
            "'null', NIL, localhost:8090, false",                      // sandboxed frames send Origin: null
            "http://localhost:8090, NIL, NIL, false",
            "'::not a url', NIL, localhost:8090, false"})
    void allows(String origin, String secFetchSite, String host, boolean allowed) {
        assertThat(SameOrigin.allows(origin, secFetchSite, host)).isEqualTo(allowed);
    }
}
