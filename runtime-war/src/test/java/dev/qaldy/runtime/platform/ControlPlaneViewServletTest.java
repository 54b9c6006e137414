package dev.qaldy.runtime.platform;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.contract.health.ControlPlaneWitness;
import dev.qaldy.contract.health.UpstreamHealth;
import dev.qaldy.runtime.testing.FakeHttp;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/** The witness a gate asks (issue 19): this host's view of the control plane, read with GET only. */
class ControlPlaneViewServletTest {

    @Test
    void it_says_how_long_ago_the_control_plane_answered_this_host() throws Exception {
        UpstreamHealth view = new UpstreamHealth("control plane", Clock.systemUTC(), Duration.ofMillis(500), () -> { },
                Logger.getAnonymousLogger());
        ControlPlaneViewServlet servlet = new ControlPlaneViewServlet(view);
        FakeHttp.Response never = new FakeHttp.Response();
        servlet.service(FakeHttp.get(ControlPlaneWitness.PATH, Map.of()), never.servlet);
        assertThat(never.status).isEqualTo(200);
        assertThat(never.text()).isEqualTo("{\"state\":\"UP\",\"answeredMsAgo\":-1}");

        view.call().answered();
        FakeHttp.Response answered = new FakeHttp.Response();
        servlet.service(FakeHttp.get(ControlPlaneWitness.PATH, Map.of()), answered.servlet);
        long ago = ControlPlaneWitness.answeredMsAgo(answered.text().getBytes(StandardCharsets.UTF_8));
        assertThat(ago).isBetween(0L, 5_000L);
    }

    @Test
    void only_get() throws Exception {
        UpstreamHealth view = new UpstreamHealth("control plane", Clock.systemUTC(), Duration.ofMillis(500), () -> { },
                Logger.getAnonymousLogger());
        FakeHttp.Response posted = new FakeHttp.Response();
        new ControlPlaneViewServlet(view).service(FakeHttp.request("POST", ControlPlaneWitness.PATH, Map.of(), new byte[0]),
                posted.servlet);
        assertThat(posted.status).isEqualTo(405);
    }
}
