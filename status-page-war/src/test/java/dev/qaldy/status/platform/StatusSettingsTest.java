package dev.qaldy.status.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.qaldy.status.probes.entity.Component;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Settings: durations, defaults, and the config file's defaults matching the code's. */
class StatusSettingsTest {

    @Test
    void defaultsAreTheBriefsOnes() {
        StatusSettings settings = TestSettings.defaults().build();

        assertThat(settings.probeInterval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(settings.probeTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(settings.incidentAfter()).isEqualTo(Duration.ofSeconds(30));
        assertThat(settings.staleAfter()).isEqualTo(Duration.ofSeconds(30));
        assertThat(settings.historyDays()).isEqualTo(90);
        assertThat(settings.rawProbesKept()).isEqualTo(Duration.ofHours(24));
        assertThat(settings.operatorUser()).isEqualTo("operator");
        assertThat(settings.operatorPasswordFile()).isEqualTo(Path.of("var/status/operator-password"));
        assertThat(settings.components()).extracting(Component::id).containsExactly(
                "local.gate", "local.control", "local.database", "local.runtime", "local.builder", "local.scheduler");
    }

    @Test
    void configFileDefaultsFollowTheLaunchersProperties() throws IOException {
        Properties file = new Properties();
        try (InputStream in = getClass().getResourceAsStream("/META-INF/microprofile-config.properties")) {
            file.load(in);
        }
        assertThat(file.getProperty("qaldy.status.cells")).isEqualTo("local=gate:${qaldy.public-url:http://localhost:8080},"
                + "control:${qaldy.control.url:http://127.0.0.1:8081},runtime:${qaldy.runtime.url:http://127.0.0.1:8082}");
        assertThat(file.getProperty("qaldy.status.data-dir")).isEqualTo("${qaldy.var:var}/status");
        assertThat(file.getProperty("qaldy.status.probe-interval")).isEqualTo("PT5S");
        assertThat(file.getProperty("qaldy.status.probe-timeout")).isEqualTo("PT2S");
        assertThat(file.getProperty("qaldy.status.incident-after")).isEqualTo("PT30S");
        assertThat(file.getProperty("qaldy.status.stale-after")).isEqualTo("PT30S");
        assertThat(file.getProperty("qaldy.status.operator-user")).isEqualTo("operator");
        assertThat(file.getProperty("qaldy.status.history-days")).isEqualTo("90");
    }

    @ParameterizedTest(name = "{0} -> {1} ms")
    @CsvSource({"PT5S, 5000", "PT0.5S, 500", "PT30M, 1800000", "P7D, 604800000", "' PT2S ', 2000"})
    void durations(String text, long millis) {
        assertThat(StatusSettings.positive("p", text).toMillis()).isEqualTo(millis);
    }

    @ParameterizedTest(name = "{0} is refused")
    @CsvSource({"5s", "5", "PT0S", "PT-5S", "soon"})
    void badDurationsAreRefusedNamingTheProperty(String text) {
        assertThatThrownBy(() -> StatusSettings.positive("qaldy.status.probe-interval", text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("qaldy.status.probe-interval");
    }

    @Test
    void badSettingsStopTheStart() {
        assertThatThrownBy(() -> TestSettings.defaults().incidentAfter("thirty seconds").build())
                .hasMessageContaining("qaldy.status.incident-after");
        assertThatThrownBy(() -> TestSettings.defaults().cells("local").build())
                .hasMessageContaining("qaldy.status.cells");
        assertThatThrownBy(() -> TestSettings.defaults().historyDays(0).build())
                .hasMessageContaining("qaldy.status.history-days");
    }
}
