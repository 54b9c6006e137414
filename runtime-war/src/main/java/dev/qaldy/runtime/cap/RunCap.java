package dev.qaldy.runtime.cap;

import dev.qaldy.contract.cap.CapKeeper.Verdict;
import dev.qaldy.contract.cap.CapKeeper;
import dev.qaldy.contract.cap.CapSync;
import dev.qaldy.contract.health.UpstreamHealth;
import dev.qaldy.contract.keys.CellPublicKeys;
import dev.qaldy.runtime.bundles.control.LiveVersions;
import dev.qaldy.runtime.bundles.entity.LiveVersion;
import dev.qaldy.runtime.platform.CellCredentials;
import dev.qaldy.runtime.platform.ServingException;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The spending cap at the runtime host: server code of an app whose account reached its cap does
 * not run (503 {@code urn:qaldy:problem:asleep}), with or without the API. The host keeps the last
 * verified cap state of every account and the CPU milliseconds of server code it ran since (a
 * {@link CapKeeper} over {@code qaldy.runtime.cap-dir}, default {@code ${qaldy.var}/runtime-cap}),
 * the account of every app the control plane's live answers named, and syncs with the control
 * plane in the background like the gate: usage every {@code qaldy.cap.report-interval}, states
 * every {@code qaldy.cap.refresh}. An account it never received a state for is fetched on demand;
 * while that fails, server code does not run (503: the host cannot know the cap). Its calls tell the
 * host's view of the control plane ({@link UpstreamHealth}) how they ended, and none is made while
 * that view says failing.
 */
@ApplicationScoped
public class RunCap {

    static final int MAX_ACCOUNTS = 1_000_000;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private CellCredentials credentials;
    private LiveVersions liveVersions;
    private URI control;
    private Duration refresh;
    private Duration reportInterval;
    private Duration flushInterval;
    private Duration leeway;
    private Duration fetchTimeout;
    private Duration callTimeout;
    private Path dir;
    private Clock clock;
    private Logger log;
    private UpstreamHealth health;
    private AppAccounts accounts;
    private volatile CapKeeper keeper;
    private volatile CapSync sync;
    private ScheduledFuture<?> ticking;

    @Resource
    ManagedScheduledExecutorService scheduler;

    protected RunCap() {
    }

    /**
     * @param capDir where to keep cap states and counts; empty: {@code ${qaldy.var}/runtime-cap} (null var: memory only)
     * @param health the host's view of the control plane
     */
    @Inject
    public RunCap(CellCredentials credentials, LiveVersions liveVersions,
            @ConfigProperty(name = "qaldy.control.url") String control,
            @ConfigProperty(name = "qaldy.cap.refresh", defaultValue = "PT15S") Duration refresh,
            @ConfigProperty(name = "qaldy.cap.report-interval", defaultValue = "PT10S") Duration reportInterval,
            @ConfigProperty(name = "qaldy.cap.flush-interval", defaultValue = "PT1S") Duration flushInterval,
            @ConfigProperty(name = "qaldy.cap.leeway", defaultValue = "PT2M") Duration leeway,
            @ConfigProperty(name = "qaldy.cap.fetch-timeout", defaultValue = "PT1S") Duration fetchTimeout,
            @ConfigProperty(name = "qaldy.cap.call-timeout", defaultValue = "PT5S") Duration callTimeout,
            @ConfigProperty(name = "qaldy.var", defaultValue = "var") String var,
            @ConfigProperty(name = "qaldy.runtime.cap-dir") Optional<String> capDir,
            Clock clock, Logger log, UpstreamHealth health) {
        this.credentials = credentials;
        this.liveVersions = liveVersions;
        this.control = URI.create(control);
        this.refresh = refresh;
        this.reportInterval = reportInterval;
        this.flushInterval = flushInterval;
        this.leeway = leeway;
        this.fetchTimeout = fetchTimeout;
        this.callTimeout = callTimeout;
        this.dir = capDir.filter(d -> !d.isBlank()).map(Path::of).orElse(var == null ? null : Path.of(var, "runtime-cap"));
        this.clock = clock;
        this.log = log;
        this.health = health;
        this.accounts = new AppAccounts(dir, log);
        this.accounts.load();
    }

    void start(@Observes @Initialized(ApplicationScoped.class) Object started) {
        ready();
        long tick = Math.max(100, List.of(refresh, reportInterval, flushInterval).stream()
                .mapToLong(Duration::toMillis).min().orElse(1000));
        ticking = scheduler.scheduleWithFixedDelay(this::tick, 0, tick, TimeUnit.MILLISECONDS);
        log.log(Level.INFO, "runtime: spending cap: states from {0} every {1}, usage reported every {2}, kept in {3}",
                new Object[] {control, refresh, reportInterval, dir});
    }

    @PreDestroy
    void stop() {
        if (ticking != null) {
            ticking.cancel(false);
        }
        flush();
    }

    /** One round of the background sync (tests call it by hand). */
    public void tick() {
        try {
            ready().ifPresent(s -> s.tick(reportInterval, refresh));
            accounts.flush();
        } catch (RuntimeException e) {
            log.log(Level.WARNING, "runtime: spending cap sync failed", e);
        }
    }

    /** Writes counts and app accounts to disk now. */
    public void flush() {
        CapKeeper held = keeper;
        if (held != null) {
            held.flush();
        }
        accounts.flush();
    }

    /**
     * Notes whose account {@code app} is (from the live answer) and, while the control plane
     * answers, fetches that account's cap state if this host never received it, so server code can
     * be decided later even without the API. Never refuses anything.
     */
    public void prepare(String app) {
        try {
            long account = accountOf(app);
            Optional<CapKeeper> held = keeper();
            if (account > 0 && held.isPresent() && held.get().state(account).isEmpty()) {
                ready().ifPresent(s -> s.fetch(account));
            }
        } catch (RuntimeException e) {
            log.log(Level.FINE, "runtime: no cap state prepared for {0}: {1}", new Object[] {app, e.toString()});
        }
    }

    /**
     * Checks that {@code app}'s server code may run: its account is under the cap.
     *
     * @return the account, to count the run against
     * @throws AsleepException      the account reached its cap
     * @throws CapUnknownException  the host knows neither the account nor its cap, and cannot ask now
     */
    public long requireAwake(String app) {
        long account = accountOf(app);
        if (account <= 0) {
            throw new CapUnknownException("no account known for " + app + ": its cap cannot be checked");
        }
        Optional<CapKeeper> held = keeper();
        if (held.isEmpty()) {
            throw new CapUnknownException("the cell's public key is not loaded: cap states cannot be verified");
        }
        Verdict verdict = held.get().verdict(account);
        if (verdict instanceof Verdict.Unknown) {
            Optional<CapSync> ready = ready();
            if (ready.isPresent() && ready.get().fetch(account)) {
                verdict = held.get().verdict(account);
            }
        }
        if (verdict instanceof Verdict.Awake) {
            return account;
        }
        if (verdict instanceof Verdict.Asleep asleep) {
            throw new AsleepException(app + " (account " + account + ") is over its cap", asleep.retryAfter(),
                    asleep.state().periodEnd());
        }
        throw new CapUnknownException("no cap state for account " + account + " of " + app + ", and none can be fetched now");
    }

    /** Counts {@code cpuMs} CPU milliseconds of {@code app}'s server code against {@code accountId}. */
    public void ran(String app, long accountId, long cpuMs) {
        keeper().ifPresent(held -> held.count(accountId, app, 0, Math.max(1, cpuMs)));
    }

    /**
     * Counts {@code cpuMs} CPU milliseconds of a job run of {@code app} (a schedule's or webhook's)
     * against its account. Never refuses: the control plane admits job runs against the cap before
     * it dispatches them (its state is the newer one then), so this only bills what ran. A run whose
     * account cannot be known is logged and not counted.
     */
    public void ranJob(String app, long cpuMs) {
        try {
            long account = accountOf(app);
            if (account > 0) {
                ran(app, account, cpuMs);
                return;
            }
            log.log(Level.WARNING, "runtime: a job run of {0} ({1} ms CPU) was not counted: no account known", new Object[] {app, cpuMs});
        } catch (RuntimeException e) {
            log.log(Level.WARNING, "runtime: a job run of " + app + " (" + cpuMs + " ms CPU) was not counted: " + e);
        }
    }

    /** The current thread's CPU time, ns (wall time where the JVM cannot measure CPU). */
    public static long cpuNow() {
        if (THREADS.isCurrentThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled()) {
            return THREADS.getCurrentThreadCpuTime();
        }
        return System.nanoTime();
    }

    /** Milliseconds since {@code startNanos} of {@link #cpuNow()}, rounded up. */
    public static long cpuMillisSince(long startNanos) {
        long nanos = Math.max(0, cpuNow() - startNanos);
        return (nanos + 999_999) / 1_000_000;
    }

    /** The keeper, once the cell's public key is loaded. */
    public Optional<CapKeeper> keeper() {
        return ready().map(s -> keeper);
    }

    private synchronized Optional<CapSync> ready() {
        if (sync != null) {
            return Optional.of(sync);
        }
        CellPublicKeys key;
        try {
            key = credentials.publicKeys();
        } catch (ServingException e) {
            return Optional.empty();
        }
        CapKeeper created = new CapKeeper(key, clock, leeway, dir, log, MAX_ACCOUNTS);
        int read = created.load();
        log.log(Level.INFO, "runtime: spending cap: read {0} accounts kept in {1}", new Object[] {read, dir});
        keeper = created;
        sync = new CapSync(created, control, credentials::toControl, "runtime", callTimeout, fetchTimeout, clock, log, health);
        return Optional.of(sync);
    }

    /** The account the live answer names for {@code app}, else the one the control plane last named. */
    private long accountOf(String app) {
        LiveVersion live = liveVersions.live(app).value();
        if (live.accountId() > 0) {
            accounts.learn(app, live.accountId());
            return live.accountId();
        }
        return accounts.of(app).orElse(LiveVersion.NO_ACCOUNT);
    }
}
