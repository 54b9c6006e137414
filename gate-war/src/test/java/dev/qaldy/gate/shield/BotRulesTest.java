package dev.qaldy.gate.shield;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.gate.shield.BotRules.Broken;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BotRulesTest {

    private static final BotRules RULES = new BotRules(Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"),
            8192, 100, 16_384, true, BotRules.patterns(ShieldConfig.DEFAULT_BLOCKED_USER_AGENTS));

    /** {@code appBlocked}: the app's own patterns as config writes them, or empty. */
    @ParameterizedTest(name = "[{index}] ''{0}'' with app patterns ''{1}'' → {2}")
    @CsvSource(nullValues = "NULL", value = {
        "'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36', '', OK",
        "'curl/8.5.0',                                  '',                 OK",
        "'Java-http-client/17.0.15',                    '',                 OK",
        "'sqlmap/1.8#stable (https://sqlmap.org)',      '',                 BLOCKED_USER_AGENT",
        "'Mozilla/5.0 (compatible; Nikto/2.5.0)',       '',                 BLOCKED_USER_AGENT",
        "'masscan/1.3 (https://github.com/robertdavidgraham/masscan)', '',  BLOCKED_USER_AGENT",
        "'SQLMAP',                                      '',                 BLOCKED_USER_AGENT",
        "'Mozilla/5.0 zgrab/0.x',                       '',                 BLOCKED_USER_AGENT",
        "'Nuclei - Open-source project (github.com/projectdiscovery/nuclei)', '', BLOCKED_USER_AGENT",
        "'WPScan v3.8.25',                              '',                 BLOCKED_USER_AGENT",
        "'curl/8.5.0',                                  '(?i)^curl/',       BLOCKED_USER_AGENT",
        "'libcurl-agent/1.0',                           '(?i)^curl/',       OK",
        "'python-requests/2.32', '(?i)python-requests,(?i)scrapy',          BLOCKED_USER_AGENT",
        "'Scrapy/2.11',          '(?i)python-requests,(?i)scrapy',          BLOCKED_USER_AGENT",
        "'',                                            '',                 NO_USER_AGENT",
        "'   ',                                         '',                 NO_USER_AGENT",
        "NULL,                                          '',                 NO_USER_AGENT",
    })
    void userAgents(String userAgent, String appBlocked, String expected) {
        Optional<Broken> broken = RULES.userAgent(userAgent, BotRules.patterns(appBlocked));
        assertThat(broken.map(Enum::name).orElse("OK")).isEqualTo(expected);
    }

    @Test
    void aMissingUserAgentMayBeAllowed() {
        BotRules lenient = new BotRules(Set.of("GET"), 100, 10, 100, false, List.of(Pattern.compile("bot")));
        assertThat(lenient.userAgent(null, List.of())).isEmpty();
        assertThat(lenient.userAgent("", List.of())).isEmpty();
        assertThat(lenient.userAgent("a bot", List.of())).contains(Broken.BLOCKED_USER_AGENT);
    }

    @ParameterizedTest(name = "[{index}] {0}, target {1}, {2} headers, {3} bytes → {4}")
    @CsvSource({
        "GET,     20,    5,   200,   OK",
        "POST,    8192,  100, 16384, OK",
        "OPTIONS, 1,     1,   10,    OK",
        "TRACE,   20,    5,   200,   METHOD",
        "CONNECT, 20,    5,   200,   METHOD",
        "PROPFIND, 20,   5,   200,   METHOD",
        "get,     20,    5,   200,   METHOD",
        "GET,     8193,  5,   200,   TARGET_TOO_LONG",
        "GET,     20,    101, 200,   HEADERS_TOO_LARGE",
        "GET,     20,    5,   16385, HEADERS_TOO_LARGE",
    })
    void requestLines(String method, int target, int headers, long bytes, String expected) {
        ShieldRequest req = new ShieldRequest(method, "/", target, headers, bytes, "ua", "127.0.0.1", List.of());
        assertThat(RULES.requestLine(req).map(Enum::name).orElse("OK")).isEqualTo(expected);
    }

    @Test
    void patternListsSplitOnUnescapedCommas() {
        assertThat(BotRules.patterns("a{1\\,3}b, ,(?i)x")).extracting(Pattern::pattern).containsExactly("a{1,3}b", "(?i)x");
        assertThat(BotRules.patterns(null)).isEmpty();
        assertThat(BotRules.patterns("")).isEmpty();
        assertThatThrownBy(() -> BotRules.patterns("(unclosed")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("(unclosed");
        assertThat(RULES.allowedMethods()).contains("GET", "OPTIONS").doesNotContain("TRACE");
        assertThat(new BotRules(Set.of(" get "), 1, 1, 1, true, List.of()).allowedMethods()).containsExactly("GET");
    }
}
