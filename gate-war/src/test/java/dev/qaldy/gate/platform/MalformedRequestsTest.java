package dev.qaldy.gate.platform;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MalformedRequestsTest {

    @ParameterizedTest
    @ValueSource(strings = {"localhost", "localhost:8080", "app.localhost:1", "app.localhost:65535", "[::1]", "[::1]:8080",
        "evil.example.com", "app.localhost."})
    void aNameWithADecimalPortOrNonePasses(String host) {
        assertThat(MalformedRequests.wellFormed(host)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"app.localhost:8080@evil", "app.localhost:8080:1", "app.localhost:abc", "app.localhost:",
        "app.localhost:123456", "app.localhost: 80", "[::1", "[::1]x", "[::1]:", "a:b:c", "app.localhost:-1"})
    void anythingGrizzlyCannotReadOrTheGateWouldRefuseIsMalformed(String host) {
        assertThat(MalformedRequests.wellFormed(host)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"/", "/notes", "/a%20b", "/a%2Fb", "/%C3%A9t%C3%A9", "/api/v1/apps", "/.qaldy/ticket", "/a.b/..c/.d", "/...", "/a//b", "/a/...b/"})
    void pathsTheServerCanDecodePass(String path) {
        assertThat(MalformedRequests.decodable(path)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"/%ZZ", "/api/h%ZZ", "/%", "/a%2", "/a%0g", "/nul%00", "/..", "/a/../b", "/./a", "/a/.", "/a/..", "/a/../"})
    void badEscapesNulAndDotSegmentsAreMalformed(String path) {
        assertThat(MalformedRequests.decodable(path)).isFalse();
    }
}
