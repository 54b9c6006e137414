package dev.qaldy.gate.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ConsoleCookieTest {

    @Test
    void theCookieIsHttpOnlyStrictHostOnlyAndLivesAsLongAsTheToken() {
        assertThat(ConsoleCookie.set("tok", 43_200, false))
                .isEqualTo("qaldy_console=tok; Path=/; Max-Age=43200; HttpOnly; SameSite=Strict")
                .doesNotContainIgnoringCase("Domain");
        assertThat(ConsoleCookie.set("tok", -5, false)).contains("Max-Age=0;");
    }

    @Test
    void onHttpsItIsSecureAndHostPrefixedSoNoSiblingOriginCanPlantOne() {
        assertThat(ConsoleCookie.set("tok", 60, true))
                .isEqualTo("__Host-qaldy_console=tok; Path=/; Max-Age=60; HttpOnly; SameSite=Strict; Secure");
        assertThat(ConsoleCookie.clear(true)).isEqualTo("__Host-qaldy_console=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict; Secure");
        assertThat(ConsoleCookie.clear(false)).isEqualTo("qaldy_console=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict");
    }

    @Test
    void theTokenIsReadUnderTheOriginsNameOnly() {
        List<String> headers = List.of("theme=dark; qaldy_session=app; qaldy_console=console");
        assertThat(ConsoleCookie.token(headers, false)).isEqualTo("console");
        assertThat(ConsoleCookie.token(headers, true)).as("on https only the __Host- cookie counts").isNull();
        assertThat(ConsoleCookie.token(List.of("__Host-qaldy_console=s"), true)).isEqualTo("s");
        assertThat(ConsoleCookie.token(List.of("qaldy_console=; qaldy_console=second"), false)).isEqualTo("second");
        assertThat(ConsoleCookie.token(List.of("qaldy_session=app"), false)).isNull();
        assertThat(ConsoleCookie.token(null, false)).isNull();
    }

    @Test
    void theTokenNeverTravelsUpstreamAsACookie() {
        assertThat(ConsoleCookie.without("theme=dark; qaldy_console=t; __Host-qaldy_console=u; lang=en")).isEqualTo("theme=dark; lang=en");
        assertThat(ConsoleCookie.without("qaldy_console=t")).isNull();
    }
}
