package dev.qaldy.gate.routing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AppPathTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "/.qaldy/ticket, TICKET",
        "/.qaldy/signout, SIGNOUT",
        "/.qaldy, RESERVED",
        "/.qaldy/, RESERVED",
        "/.qaldy/anything, RESERVED",
        "/.QALDY/ticket, RESERVED",
        "/.qaldy/ticket/, RESERVED",
        "/.qaldy/data/notes, DATA",
        "/.qaldy/data/notes/12, DATA",
        "/.QALDY/data/notes, RESERVED",
        "/.qaldy/data, RESERVED",
        "/.qaldy/jobs/digest, RESERVED",
        "/.QALDY/jobs/digest, RESERVED",
        "/, APP",
        "/index.html, APP",
        "/api/sign, APP",
        "/.qaldyx, APP",
        "/x/.qaldy/ticket, APP",
    })
    void classifies(String rawPath, AppPath expected) {
        assertThat(AppPath.of(rawPath)).isEqualTo(expected);
    }
}
