package dev.qaldy.gate.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which paths the gate forwards to the control plane as webhooks and data. */
class ControlForwarderTest {

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource({
        "/hooks/guestbook/deploy, true",
        "/hooks/a/b, true",
        "/hooks/guestbook/deploy/, false",
        "/hooks/guestbook, false",
        "/hooks/Guestbook/deploy, false",
        "/hooks/-x/deploy, false",
        "/hooks/guestbook/de%2Fploy, false",
        "/hooks/guestbook/../internal, false"})
    void hook_paths(String path, boolean forwarded) {
        assertThat(ControlForwarder.HOOK_PATH.matcher(path).matches()).isEqualTo(forwarded);
    }

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource({
        "/.qaldy/data/notes, true",
        "/.qaldy/data/notes/12, true",
        "/.qaldy/data/notes/12/x, false",
        "/.qaldy/data/notes/abc, false",
        "/.qaldy/data/Notes, false",
        "/.qaldy/data/, false",
        "/.qaldy/data/notes/, false"})
    void data_paths(String path, boolean forwarded) {
        assertThat(ControlForwarder.DATA_PATH.matcher(path).matches()).isEqualTo(forwarded);
    }

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource({"limit=10, true", "after=5&limit=10, true", "limit=10&x=1, false", "limit=a, false", "limit=1&after=2&limit=3, false"})
    void data_queries(String query, boolean forwarded) {
        assertThat(ControlForwarder.DATA_QUERY.matcher(query).matches()).isEqualTo(forwarded);
    }
}
