package dev.qaldy.gate.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ProxyHeadersTest {

    private final Set<String> none = Set.of();

    @ParameterizedTest
    @ValueSource(strings = {"Connection", "Keep-Alive", "Proxy-Authorization", "Proxy-Authenticate", "Proxy-Connection",
        "TE", "Trailer", "Transfer-Encoding", "Upgrade", "connection", "TRANSFER-ENCODING"})
    void hopByHopHeadersStopAtTheGate(String name) {
        assertThat(ProxyHeaders.isHopByHop(name, none)).isTrue();
        assertThat(ProxyHeaders.forwardRequestHeader(name, none, Upstream.RUNTIME)).isFalse();
        assertThat(ProxyHeaders.forwardRequestHeader(name, none, Upstream.CONTROL)).isFalse();
        assertThat(ProxyHeaders.forwardResponseHeader(name, none)).isFalse();
    }

    @Test
    void headersNamedInConnectionStopToo() {
        Set<String> tokens = ProxyHeaders.connectionTokens(List.of("keep-alive, X-Secret-Hop", " Foo ,,"));
        assertThat(tokens).containsExactlyInAnyOrder("keep-alive", "x-secret-hop", "foo");
        assertThat(ProxyHeaders.forwardRequestHeader("X-Secret-Hop", tokens, Upstream.RUNTIME)).isFalse();
        assertThat(ProxyHeaders.forwardResponseHeader("foo", tokens)).isFalse();
        assertThat(ProxyHeaders.forwardResponseHeader("X-Other", tokens)).isTrue();
        assertThat(ProxyHeaders.connectionTokens(null)).isEmpty();
        assertThat(ProxyHeaders.connectionTokens(Arrays.asList((String) null))).isEmpty();
    }

    @ParameterizedTest(name = "{0}: runtime {1}, control {2}")
    @CsvSource({
        "Accept, true, true",
        "Accept-Encoding, true, true",
        "Content-Type, true, true",
        "User-Agent, true, true",
        "If-None-Match, true, true",
        "X-Requested-With, true, true",
        // the person's credentials never reach the runtime host; the API needs them
        "Authorization, false, true",
        "authorization, false, true",
        "Cookie, false, true",
        // the HTTP client's own business
        "Host, false, false",
        "Content-Length, false, false",
        "Expect, false, false",
        // what the gate sets itself is never taken from the client
        "X-Forwarded-For, false, false",
        "X-Forwarded-Host, false, false",
        "x-forwarded-proto, false, false",
        "Forwarded, false, false",
        "X-Real-IP, false, false",
        "X-Qaldy-App, false, false",
        "X-Qaldy-Person-Email, false, false",
        "X-Qaldy-Service-Token, false, false",
        "x-qaldy-anything, false, false",
    })
    void requestHeaders(String name, boolean toRuntime, boolean toControl) {
        assertThat(ProxyHeaders.forwardRequestHeader(name, none, Upstream.RUNTIME)).isEqualTo(toRuntime);
        assertThat(ProxyHeaders.forwardRequestHeader(name, none, Upstream.CONTROL)).isEqualTo(toControl);
    }

    @ParameterizedTest
    @ValueSource(strings = {"Content-Type", "Content-Length", "Set-Cookie", "ETag", "Location", "Cache-Control", "Content-Encoding"})
    void endToEndResponseHeadersComeBack(String name) {
        assertThat(ProxyHeaders.forwardResponseHeader(name, none)).isTrue();
    }

    @Test
    void theUpstreamServerHeaderStaysPrivate() {
        assertThat(ProxyHeaders.forwardResponseHeader("Server", none)).isFalse();
        assertThat(ProxyHeaders.forwardResponseHeader("server", none)).isFalse();
    }

    @Test
    void onlyTheGateSaysHowAccessWasDecidedAndWhatItsShieldRefused() {
        assertThat(ProxyHeaders.forwardResponseHeader("X-Qaldy-Access", none)).isFalse();
        assertThat(ProxyHeaders.forwardResponseHeader("x-qaldy-access", none)).isFalse();
        assertThat(ProxyHeaders.forwardResponseHeader("X-Qaldy-Shield", none)).isFalse();
        assertThat(ProxyHeaders.forwardResponseHeader("RateLimit-Limit", none)).as("an app's own rate-limit headers pass").isTrue();
    }

    @Test
    void xForwardedForIsTheClientTheShieldResolvedElseThePeer() {
        assertThat(ProxyHeaders.forwardedFor("198.51.100.7", "10.0.0.1")).isEqualTo("198.51.100.7");
        assertThat(ProxyHeaders.forwardedFor(null, "127.0.0.1")).isEqualTo("127.0.0.1");
        assertThat(ProxyHeaders.forwardedFor("", "127.0.0.1")).isEqualTo("127.0.0.1");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "http://127.0.0.1:8082/done, http://guestbook.localhost:8080/done",
        "http://127.0.0.1:8082, http://guestbook.localhost:8080",
        "http://127.0.0.1:8082?x=1, http://guestbook.localhost:8080?x=1",
        "HTTP://127.0.0.1:8082/a, http://guestbook.localhost:8080/a",
        "/relative, /relative",
        "https://example.com/x, https://example.com/x",
        "http://127.0.0.1:80821/x, http://127.0.0.1:80821/x",
        "http://127.0.0.1:8082.evil.com/x, http://127.0.0.1:8082.evil.com/x",
    })
    void locationsPointingUpstreamAreRewritten(String location, String expected) {
        assertThat(ProxyHeaders.rewriteLocation(location, "http://127.0.0.1:8082", "http://guestbook.localhost:8080"))
                .isEqualTo(expected);
    }
}
