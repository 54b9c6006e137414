package dev.qaldy.status.platform;

import java.nio.file.Path;
import java.util.Optional;
import java.util.logging.Logger;

/** Builds {@link StatusSettings} as the container would, from the defaults and a few changes. */
public final class TestSettings {

    private final StatusSettings settings = new StatusSettings();

    private TestSettings() {
        settings.pageName = "Qaldy status";
        settings.cellsText = "local=gate:http://127.0.0.1:8080,control:http://127.0.0.1:8081,runtime:http://127.0.0.1:8082";
        settings.dataDir = "var/status";
        settings.probeIntervalText = "PT5S";
        settings.probeTimeoutText = "PT2S";
        settings.incidentAfterText = "PT30S";
        settings.staleAfterText = "PT30S";
        settings.slowAfterText = "PT1S";
        settings.historyDays = 90;
        settings.rawProbesKeptText = "PT24H";
        settings.resolvedShownText = "P7D";
        settings.operatorUser = "operator";
        settings.operatorPasswordFile = Optional.empty();
        settings.sessionIdleText = "PT30M";
        settings.sessionMaxText = "PT12H";
        settings.log = Logger.getLogger(TestSettings.class.getName());
    }

    /** Settings with every default. */
    public static TestSettings defaults() {
        return new TestSettings();
    }

    public TestSettings cells(String text) {
        settings.cellsText = text;
        return this;
    }

    public TestSettings dataDir(Path dir) {
        settings.dataDir = dir.toString();
        return this;
    }

    public TestSettings incidentAfter(String text) {
        settings.incidentAfterText = text;
        return this;
    }

    public TestSettings staleAfter(String text) {
        settings.staleAfterText = text;
        return this;
    }

    public TestSettings probeInterval(String text) {
        settings.probeIntervalText = text;
        return this;
    }

    public TestSettings historyDays(int days) {
        settings.historyDays = days;
        return this;
    }

    /** The checked settings, as after the container's {@code @PostConstruct}. */
    public StatusSettings build() {
        settings.check();
        return settings;
    }
}
