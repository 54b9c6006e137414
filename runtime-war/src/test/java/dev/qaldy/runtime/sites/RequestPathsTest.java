package dev.qaldy.runtime.sites;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.runtime.platform.BadRequestException;
import dev.qaldy.runtime.sites.control.RequestPaths;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RequestPathsTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "/../etc/passwd", "/a/../../b", "/a/..", "/./index.html", "/a/.",
        "/%2e%2e/secret", "/%2E%2e/secret", "/.%2e/secret", "/%2e./secret", "/a/%2e%2e/%2e%2e/b", "/%2e/x",
        "/a\\b", "/..\\secret", "/a%5cb", "/a%5C..%5Cb",
        "/a%00b", "/index.html%00.png", "/a%0d%0aSet-Cookie:x", "/a%7f",
        "/a%2fb", "/..%2fsecret", "/%2F%2Fevil.example",
        "/%", "/%2", "/%zz", "/%c0%ae%c0%ae/x", "/%ff",
        "relative", "*"
    })
    void unsafe_or_malformed_paths_are_refused(String raw) {
        assertThatThrownBy(() -> RequestPaths.decode(raw)).isInstanceOf(BadRequestException.class);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "/|/",
        "/index.html|/index.html",
        "/a%20b.txt|/a b.txt",
        "/caf%C3%A9/|/café/",
        "/a+b|/a+b",
        "/..a/b..|/..a/b..",
        "/.well-known/x|/.well-known/x",
        "/api/sign|/api/sign"
    })
    void safe_paths_are_decoded(String raw, String decoded) {
        assertThat(RequestPaths.decode(raw)).isEqualTo(decoded);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "/docs/|/docs/",
        "/a b/|/a%20b/",
        "/café/|/caf%C3%A9/",
        "/x?y#z/|/x%3Fy%23z/"
    })
    void locations_are_encoded_back(String decoded, String encoded) {
        assertThat(RequestPaths.encode(decoded)).isEqualTo(encoded);
    }

    @org.junit.jupiter.api.Test
    void an_overlong_path_is_refused() {
        assertThatThrownBy(() -> RequestPaths.decode("/" + "a".repeat(3000))).isInstanceOf(BadRequestException.class);
    }
}
