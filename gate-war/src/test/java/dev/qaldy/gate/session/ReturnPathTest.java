package dev.qaldy.gate.session;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class ReturnPathTest {

    @ParameterizedTest
    @ValueSource(strings = {"/", "/path", "/guestbook/entries?page=2&sort=new", "/a/b/c.html#top", "/search?q=a%20b", "/api/sign"})
    void keepsSameOriginPaths(String path) {
        assertThat(ReturnPath.sanitize(path)).isEqualTo(path);
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {
        "//evil.com", "//evil.com/path", "///evil.com", "/\\evil.com", "\\\\evil.com",
        "http://evil.com", "https://guestbook.localhost/", "javascript:alert(1)", "evil.com", "path",
        "/\tevil", "/ path", "/path\r\nSet-Cookie: x=1", "/p\u0000", "/\u00fcber", "/a\\b",
        "/.qaldy/ticket?t=x", "/.qaldy/signout",
    })
    void refusesAnythingElse(String candidate) {
        assertThat(ReturnPath.sanitize(candidate)).isEqualTo("/");
    }

    @Test
    void refusesOverlongPaths() {
        assertThat(ReturnPath.sanitize("/" + "a".repeat(ReturnPath.MAX_LENGTH))).isEqualTo("/");
    }
}
