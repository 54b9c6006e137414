package dev.qaldy.gate.routing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PublicPathTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "/, ROOT",
        "/console, CONSOLE",
        "/console/, CONSOLE",
        "/console/app.js, CONSOLE",
        "/console/css/site.css, CONSOLE",
        "/consoles, NO_ROUTE",
        "/health/ready, HEALTH",
        "/metrics, METRICS",
        "/metrics/application, METRICS",
        "/metricsx, NO_ROUTE",
        "/.qaldy/internal/sharing-versions, NO_ROUTE",
        "/api, API",
        "/api/v1/apps, API",
        "/api/v1/apps/guestbook/builds, API",
        "/api/v1/people/me%40example.com, API",
        "/apis, NO_ROUTE",
        "/API/v1/apps, NO_ROUTE",
        // internal endpoints are never proxied from outside, whatever the spelling
        "/api/v1/internal, INTERNAL",
        "/api/v1/internal/, INTERNAL",
        "/api/v1/internal/access, INTERNAL",
        "/api/v1/internal/tickets/redeem, INTERNAL",
        "/api/v1/INTERNAL/access, INTERNAL",
        "/api/V1/Internal/access, INTERNAL",
        "/%61pi/v1/internal/access, INTERNAL",
        "/api/v1/%69nternal/access, INTERNAL",
        "/api/v1/internalx, API",
        // tricks that an upstream might read as another path
        "/api/v1/./internal/access, BAD_PATH",
        "/api/v1/../v1/internal/access, BAD_PATH",
        "/api//v1/internal/access, BAD_PATH",
        "/api/v1/internal%2Faccess, BAD_PATH",
        "/api/v1%2finternal/access, BAD_PATH",
        "/api/v1/%2e%2e/internal, BAD_PATH",
        "/api/v1/%2E/internal, BAD_PATH",
        "/api/v1/internal;x=1/access, BAD_PATH",
        "/api/v1/internal%3bx/access, BAD_PATH",
        "/api/v1%5cinternal/access, BAD_PATH",
        "/api/v1/%252e%252e/internal, BAD_PATH",
        "/api/v1/%00, BAD_PATH",
        "/api/v1/%zz, BAD_PATH",
        "/api/v1/%c3%28, BAD_PATH",
        "/api/., BAD_PATH",
        "/api/.., BAD_PATH",
        "'/api/v1 x', BAD_PATH",
        "relative, BAD_PATH",
        "/hooks/guestbook/deploy, HOOKS",
        "/hooks, HOOKS",
        "/hooksx, NO_ROUTE",
        "/.qaldy-gate/error, NO_ROUTE",
        "/favicon.ico, NO_ROUTE",
        "/WEB-INF/web.xml, NO_ROUTE",
    })
    void classifies(String rawPath, PublicPath expected) {
        assertThat(PublicPath.of(rawPath)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"/api/v1/apps, /api/v1/apps", "/a%40b, /a@b", "/%c3%a9, /\u00e9"})
    void decodes(String raw, String decoded) {
        assertThat(PublicPath.decode(raw)).isEqualTo(decoded);
    }
}
