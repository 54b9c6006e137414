package dev.qaldy.gate.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SessionCookieTest {

    @Test
    void setsAnHttpOnlyLaxCookieForTheWholeOrigin() {
        assertThat(SessionCookie.set("abc.def.ghi", 3600, false))
                .isEqualTo("qaldy_session=abc.def.ghi; Path=/; Max-Age=3600; HttpOnly; SameSite=Lax");
        assertThat(SessionCookie.set("t", -5, true)).isEqualTo("qaldy_session=t; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure");
    }

    @Test
    void clearsIt() {
        assertThat(SessionCookie.clear(false)).isEqualTo("qaldy_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax");
    }

    @Test
    void readsEveryValue() {
        assertThat(SessionCookie.values(List.of("a=1; qaldy_session=x", "qaldy_session=\"y\";b=2"), "qaldy_session"))
                .containsExactly("x", "y");
        assertThat(SessionCookie.values(List.of("xqaldy_session=1; qaldy_sessionx=2"), "qaldy_session")).isEmpty();
        assertThat(SessionCookie.values(null, "qaldy_session")).isEmpty();
    }

    @ParameterizedTest(name = "[{0}] -> [{1}]")
    @CsvSource(value = {
        "qaldy_session=tok|",
        "a=1; qaldy_session=tok; b=2|a=1; b=2",
        "qaldy_session=tok;theme=dark|theme=dark",
        "theme=dark;qaldy_session=tok|theme=dark",
        "a=1; qaldy_session=t1; qaldy_session=t2|a=1",
        "my_qaldy_session=keep; a=1|my_qaldy_session=keep; a=1",
        " qaldy_session = tok ; a=1|a=1",
        "a=1;;b=2|a=1; b=2",
        "flag; qaldy_session=tok|flag",
    }, delimiter = '|')
    void removesOnlyTheSessionCookie(String header, String expected) {
        assertThat(SessionCookie.without(header, "qaldy_session")).isEqualTo(expected);
    }
}
