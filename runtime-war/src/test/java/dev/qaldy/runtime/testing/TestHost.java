package dev.qaldy.runtime.testing;

import dev.qaldy.contract.health.UpstreamHealth;
import dev.qaldy.runtime.bundles.control.AppCode;
import dev.qaldy.runtime.bundles.control.BundleStore;
import dev.qaldy.runtime.bundles.control.ControlPlaneClient;
import dev.qaldy.runtime.bundles.control.DataCentreCache;
import dev.qaldy.runtime.bundles.control.LiveVersions;
import dev.qaldy.runtime.cap.RunCap;
import dev.qaldy.runtime.platform.CellCredentials;
import dev.qaldy.runtime.sandbox.boundary.JobServlet;
import dev.qaldy.runtime.sandbox.control.AppDataClient;
import dev.qaldy.runtime.sandbox.control.AppStore;
import dev.qaldy.runtime.sandbox.control.JsonDepth;
import dev.qaldy.runtime.sandbox.control.Sandbox;
import dev.qaldy.runtime.sites.boundary.SiteServlet;
import dev.qaldy.runtime.sites.control.ServedFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * One runtime host, wired by hand as CDI would: its own memory, a data-centre cache directory it may
 * share with other hosts, a clock the test moves, and the log records it wrote. A new instance
 * over the same directory is a host restarted.
 */
public final class TestHost {

    public static final Duration FRESHNESS = Duration.ofSeconds(5);
    public static final Duration LIVE_MEMORY = Duration.ofMinutes(30);

    public final DataCentreCache copies;
    public final LiveVersions liveVersions;
    public final BundleStore bundles;
    public final AppCode code;
    public final RunCap cap;
    public final SiteServlet servlet;
    public final JobServlet jobs;
    public final List<LogRecord> logged = new CopyOnWriteArrayList<>();
    /** The host's view of the control plane, its prober running. */
    public final UpstreamHealth health;

    public TestHost(String apiUrl, CellCredentials credentials, Path dcCache, Clock clock) {
        Logger log = Logger.getAnonymousLogger();
        log.addHandler(new Handler() {
            @Override
            public void publish(LogRecord record) {
                logged.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        });
        health = TestHealth.probing(apiUrl);
        ControlPlaneClient client = new ControlPlaneClient(apiUrl, Duration.ofMillis(500), Duration.ofSeconds(2),
                1024 * 1024, credentials, health);
        copies = new DataCentreCache(dcCache, dcCache.resolveSibling("runtime-live"), 1L << 30, 1024 * 1024, credentials, clock, log);
        liveVersions = new LiveVersions(client, copies, FRESHNESS, LIVE_MEMORY, clock, log);
        bundles = new BundleStore(1 << 24, client, copies, credentials, clock, log);
        code = new AppCode(liveVersions, bundles, copies, log);
        // The host's own cap directory beside the data-centre cache: a new instance over it is a restart.
        cap = new RunCap(credentials, liveVersions, apiUrl, Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofSeconds(1),
                Duration.ofMinutes(2), Duration.ofMillis(500), Duration.ofSeconds(2), null,
                Optional.of(dcCache.resolveSibling("runtime-cap").toString()), clock, log, health);
        Sandbox sandbox = new Sandbox(200, 64L * 1024 * 1024, 20, new AppStore(1 << 20),
                new AppDataClient(client, credentials, Duration.ofMillis(500)), null, log);
        servlet = new SiteServlet(credentials, code, new ServedFiles(copies), sandbox, cap, log, Duration.ofSeconds(30));
        jobs = new JobServlet(credentials, code, sandbox, cap, log, Duration.ofSeconds(30), JsonDepth.DEFAULT_MAX);
    }

    /** The headers the gate sends for {@code app}, plus name/value pairs. */
    public static Map<String, String> gate(String app, String... more) {
        Map<String, String> headers = new HashMap<>(Map.of("X-Qaldy-Service-Token", TestCredentials.FROM_GATE,
                "X-Qaldy-App", app, "X-Qaldy-Person-Email", "ada@example.com", "X-Qaldy-Data-Grant", TestCredentials.grant(app)));
        for (int i = 0; i < more.length; i += 2) {
            headers.put(more[i], more[i + 1]);
        }
        return headers;
    }

    public FakeHttp.Response send(String method, String uri, Map<String, String> headers, String body) {
        FakeHttp.Response response = new FakeHttp.Response();
        try {
            servlet.service(FakeHttp.request(method, uri, headers, body.getBytes(StandardCharsets.UTF_8)),
                    response.servlet);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return response;
    }

    public FakeHttp.Response get(String app, String uri, String... headers) {
        return send("GET", uri, gate(app, headers), "");
    }

    /** The messages logged at {@code level} or above, formatted. */
    public List<String> messages(java.util.logging.Level level) {
        java.util.logging.SimpleFormatter formatter = new java.util.logging.SimpleFormatter();
        return logged.stream().filter(r -> r.getLevel().intValue() >= level.intValue())
                .map(formatter::formatMessage).toList();
    }
}
