package dev.qaldy.status.platform;

import dev.qaldy.status.probes.entity.Cell;
import dev.qaldy.status.probes.entity.CellsFormat;
import dev.qaldy.status.probes.entity.Component;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Every setting of the status page, read once and checked at start: a bad value stops the
 * deployment with a message naming the property. Defaults are in
 * {@code META-INF/microprofile-config.properties}.
 */
@ApplicationScoped
public class StatusSettings {

    @Inject
    @ConfigProperty(name = "qaldy.status.page-name", defaultValue = "Qaldy status")
    String pageName;

    @Inject
    @ConfigProperty(name = "qaldy.status.cells", defaultValue = "local=gate:http://127.0.0.1:8080,"
            + "control:http://127.0.0.1:8081,runtime:http://127.0.0.1:8082")
    String cellsText;

    @Inject
    @ConfigProperty(name = "qaldy.status.data-dir", defaultValue = "var/status")
    String dataDir;

    @Inject
    @ConfigProperty(name = "qaldy.status.probe-interval", defaultValue = "PT5S")
    String probeIntervalText;

    @Inject
    @ConfigProperty(name = "qaldy.status.probe-timeout", defaultValue = "PT2S")
    String probeTimeoutText;

    @Inject
    @ConfigProperty(name = "qaldy.status.incident-after", defaultValue = "PT30S")
    String incidentAfterText;

    @Inject
    @ConfigProperty(name = "qaldy.status.stale-after", defaultValue = "PT30S")
    String staleAfterText;

    @Inject
    @ConfigProperty(name = "qaldy.status.slow-after", defaultValue = "PT1S")
    String slowAfterText;

    @Inject
    @ConfigProperty(name = "qaldy.status.history-days", defaultValue = "90")
    int historyDays;

    @Inject
    @ConfigProperty(name = "qaldy.status.raw-probes-kept", defaultValue = "PT24H")
    String rawProbesKeptText;

    @Inject
    @ConfigProperty(name = "qaldy.status.resolved-shown", defaultValue = "P7D")
    String resolvedShownText;

    @Inject
    @ConfigProperty(name = "qaldy.status.operator-user", defaultValue = "operator")
    String operatorUser;

    @Inject
    @ConfigProperty(name = "qaldy.status.operator-password-file")
    Optional<String> operatorPasswordFile;

    @Inject
    @ConfigProperty(name = "qaldy.status.operator-session-idle", defaultValue = "PT30M")
    String sessionIdleText;

    @Inject
    @ConfigProperty(name = "qaldy.status.operator-session-max", defaultValue = "PT12H")
    String sessionMaxText;

    @Inject
    Logger log;

    private List<Cell> cells;
    private Duration probeInterval;
    private Duration probeTimeout;
    private Duration incidentAfter;
    private Duration staleAfter;
    private Duration slowAfter;
    private Duration rawProbesKept;
    private Duration resolvedShown;
    private Duration sessionIdle;
    private Duration sessionMax;

    @PostConstruct
    void check() {
        cells = CellsFormat.parse(cellsText);
        probeInterval = positive("qaldy.status.probe-interval", probeIntervalText);
        probeTimeout = positive("qaldy.status.probe-timeout", probeTimeoutText);
        incidentAfter = positive("qaldy.status.incident-after", incidentAfterText);
        staleAfter = positive("qaldy.status.stale-after", staleAfterText);
        slowAfter = positive("qaldy.status.slow-after", slowAfterText);
        rawProbesKept = positive("qaldy.status.raw-probes-kept", rawProbesKeptText);
        resolvedShown = positive("qaldy.status.resolved-shown", resolvedShownText);
        sessionIdle = positive("qaldy.status.operator-session-idle", sessionIdleText);
        sessionMax = positive("qaldy.status.operator-session-max", sessionMaxText);
        if (historyDays < 1 || historyDays > 3660) {
            throw new IllegalArgumentException("qaldy.status.history-days=" + historyDays + " must be 1 to 3660");
        }
        if (staleAfter.compareTo(probeInterval.plus(probeTimeout)) <= 0) {
            log.log(Level.WARNING, "status page: qaldy.status.stale-after ({0}) is not longer than the probe interval "
                    + "plus the probe timeout ({1}); components will often show \"no data\"",
                    new Object[] {staleAfter, probeInterval.plus(probeTimeout)});
        }
        for (Cell cell : cells) {
            log.log(Level.INFO, "status page: watching cell {0}: {1}", new Object[] {cell.name(),
                    String.join(", ", cell.components().stream().map(StatusSettings::describe).toList())});
        }
        log.log(Level.INFO, "status page: probe every {0} (timeout {1}), incident after {2} down, "
                + "\"no data\" after {3} without a probe, data in {4}",
                new Object[] {probeInterval, probeTimeout, incidentAfter, staleAfter, dataDir().toAbsolutePath()});
    }

    /**
     * An ISO-8601 duration greater than zero, e.g. {@code PT5S}.
     *
     * @throws IllegalArgumentException naming the property when {@code text} is not one
     */
    public static Duration positive(String property, String text) {
        try {
            Duration duration = Duration.parse(text.trim());
            if (duration.isNegative() || duration.isZero()) {
                throw new IllegalArgumentException(property + "=" + text + " must be longer than zero");
            }
            return duration;
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(property + "=" + text
                    + " is not an ISO-8601 duration like PT5S, PT30M or P7D", e);
        }
    }

    private static String describe(Component component) {
        return component.baseUrl() == null ? component.key() + " (from the control plane)"
                : component.key() + " " + component.baseUrl();
    }

    /** The page's title, e.g. "Qaldy status". */
    public String pageName() {
        return pageName;
    }

    /** The watched cells, in config order. */
    public List<Cell> cells() {
        return cells;
    }

    /** Every component of every cell, in display order. */
    public List<Component> components() {
        return cells.stream().flatMap(c -> c.components().stream()).toList();
    }

    /** The folder of the status page's own database (and, by default, the operator's password file). */
    public Path dataDir() {
        return Path.of(dataDir);
    }

    /** Time between the starts of two probe rounds. */
    public Duration probeInterval() {
        return probeInterval;
    }

    /** Longest wait for one component's readiness answer. */
    public Duration probeTimeout() {
        return probeTimeout;
    }

    /** How long a component stays down before an incident is opened for it. */
    public Duration incidentAfter() {
        return incidentAfter;
    }

    /** How old a component's latest probe may be before the page says "no data since …". */
    public Duration staleAfter() {
        return staleAfter;
    }

    /** A component that is up but answers slower than this shows as degraded performance. */
    public Duration slowAfter() {
        return slowAfter;
    }

    /** Days of uptime history kept and shown. */
    public int historyDays() {
        return historyDays;
    }

    /** How long raw probes are kept. */
    public Duration rawProbesKept() {
        return rawProbesKept;
    }

    /** How long a resolved incident stays on the page after it was resolved. */
    public Duration resolvedShown() {
        return resolvedShown;
    }

    /** The operator's user name. */
    public String operatorUser() {
        return operatorUser;
    }

    /** The operator's password file: a password, or a {@code PBKDF2WithHmacSHA512:…} hash, on its first line. */
    public Path operatorPasswordFile() {
        return operatorPasswordFile.filter(s -> !s.isBlank()).map(Path::of)
                .orElseGet(() -> dataDir().resolve("operator-password"));
    }

    /** An operator session ends after this long without a request. */
    public Duration sessionIdle() {
        return sessionIdle;
    }

    /** An operator session ends this long after sign-in, however busy. */
    public Duration sessionMax() {
        return sessionMax;
    }
}
