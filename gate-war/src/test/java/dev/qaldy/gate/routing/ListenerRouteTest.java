package dev.qaldy.gate.routing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ListenerRouteTest {

    @ParameterizedTest(name = "internal listener: {0} -> {1}")
    @CsvSource({
        "/.qaldy/internal/sharing-versions, SHARING_PUSH",
        "/.qaldy/internal/signed-out-sessions, SIGN_OUT_PUSH",
        "/.qaldy/internal/cap-states, CAP_STATES",
        // matched exactly: nothing else is served on the internal listener
        "/.qaldy/internal/hooks, HOOK_PUSH",
        "/.qaldy/internal/hooks/, NOT_HERE",
        "/.qaldy/internal/Sharing-Versions, NOT_HERE",
        "/.qaldy/internal/sharing-versions/, NOT_HERE",
        "/.qaldy/internal/%73haring-versions, NOT_HERE",
        "/.qaldy/internal, NOT_HERE",
        "/.qaldy/internal/sharing, NOT_HERE",
        "/, NOT_HERE",
        "/console/, NOT_HERE",
        "/api/v1/apps, NOT_HERE",
        "/health/ready, NOT_HERE",
        "/.qaldy/ticket, NOT_HERE",
    })
    void theInternalListenerServesTheControlPlanesCallsOnly(String rawPath, ListenerRoute expected) {
        assertThat(ListenerRoute.of(true, rawPath)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "public listener: {0} -> {1}")
    @CsvSource({
        // issue 16: the pushes and the cap states are unknown paths on the public listener, however spelled
        "/.qaldy/internal/sharing-versions, NOT_HERE",
        "/.qaldy/internal/signed-out-sessions, NOT_HERE",
        "/.qaldy/internal/cap-states, NOT_HERE",
        "/.qaldy/internal, NOT_HERE",
        "/.qaldy/internal/, NOT_HERE",
        "/.qaldy/internal/anything/else, NOT_HERE",
        "/.QALDY/Internal/cap-states, NOT_HERE",
        "/.qaldy/%69nternal/cap-states, NOT_HERE",
        "/%2eqaldy/internal/sharing-versions, NOT_HERE",
        "/.qaldy/internal%2fcap-states, NOT_HERE",
        // everything else goes on to Host routing, health and the console included
        "/, PUBLIC",
        "/health/ready, PUBLIC",
        "/console/, PUBLIC",
        "/api/v1/apps, PUBLIC",
        "/.qaldy/ticket, PUBLIC",
        "/.qaldy/signout, PUBLIC",
        "/.qaldy/data/notes, PUBLIC",
        "/.qaldy/internalx, PUBLIC",
        "/api/v1/internal/access, PUBLIC",
        "/%zz, PUBLIC",
    })
    void thePublicListenerNeverServesThem(String rawPath, ListenerRoute expected) {
        assertThat(ListenerRoute.of(false, rawPath)).isEqualTo(expected);
    }
}
