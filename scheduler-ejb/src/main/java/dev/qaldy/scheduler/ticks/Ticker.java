package dev.qaldy.scheduler.ticks;

import dev.qaldy.control.schedules.control.RunDispatcher;
import dev.qaldy.control.schedules.control.ScheduleTicks;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.Timeout;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The schedules' timer: a non-persistent interval timer ({@code qaldy.scheduler.tick-interval},
 * default 15 s) inside the control plane, so nothing fires while the control plane is down. Each
 * tick fires what is due from our own tables ({@link ScheduleTicks}: last fired tick per schedule,
 * never the server's timer store) and hands queued and waiting runs to the dispatcher. When the
 * database cannot be read the tick logs it and fires nothing; the next tick after it is back
 * catches up from the tables. While a tick queues runs the dispatcher holds back sending them (after
 * an outage 10,000 catch-up runs are queued first, then sent). A tick that would start while the last one still runs is skipped;
 * no container lock, so the readiness check never waits behind a slow tick.
 * <p>
 * The dispatcher's round over queued and waiting runs ({@link RunDispatcher#dispatchPending}) runs
 * after the look, on the managed executor, one at a time: the next look never waits for it. A look
 * held back past the planner's grace turns a tick due meanwhile into a catch-up; in the clean-clone
 * soak of c3f85ef a second catch-up followed a control plane's resume (SIGCONT) by 7 s, the looks in
 * between missing while the first tick after the resume still ran.
 */
@Singleton
@Startup
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class Ticker {

    @Resource
    TimerService timers;

    @Inject
    ScheduleTicks schedules;

    @Inject
    RunDispatcher dispatcher;

    @Inject
    Clock clock;

    @Inject
    Logger log;

    /** Where the dispatcher's rounds run, off the timer's thread. */
    @Resource(lookup = "java:comp/DefaultManagedExecutorService")
    Executor executor;

    /** A late look is logged at most this often (ms). */
    private static final long LATE_LOG_EVERY_MS = 60_000;

    private final AtomicBoolean busy = new AtomicBoolean();
    /** A dispatcher's round runs. */
    private final AtomicBoolean sending = new AtomicBoolean();
    /** When the last tick looked at the schedules (System.nanoTime), 0 before the first. */
    private volatile long lastLook;
    private volatile long lastLateLog;
    /** Only for logging a change of state once, not every tick. */
    private volatile boolean databaseDown;

    @PostConstruct
    void arm() {
        long interval = Math.max(1_000, schedules.interval().toMillis());
        timers.createIntervalTimer(Math.min(interval, 2_000), interval, new TimerConfig("qaldy schedules", false));
        log.log(Level.INFO, "scheduler: looking at schedules every {0} ms", interval);
    }

    /**
     * Whether the timer is armed; one the container dropped (Payara expunges a timer after two
     * failed deliveries) is armed again first, and logged. What was missed meanwhile is caught up
     * from the tables like any outage.
     */
    public synchronized boolean ticking() {
        if (timers.getTimers().isEmpty()) {
            log.log(Level.WARNING, "scheduler: the schedules' timer was gone (dropped by the container); armed again");
            arm();
        }
        return !timers.getTimers().isEmpty();
    }

    /** One tick; never throws, so a bad tick does not cancel the timer. */
    @Timeout
    void tick() {
        if (!busy.compareAndSet(false, true)) {
            return;
        }
        try {
            noteLateness(System.nanoTime());
            int fired = dispatcher.whileQueueing(() -> schedules.fireDue(clock));
            if (databaseDown) {
                databaseDown = false;
                log.log(Level.INFO, "scheduler: the database answers again; fired {0} runs", fired);
            }
            sendPending();
        } catch (RuntimeException e) {
            if (!databaseDown) {
                databaseDown = true;
                log.log(Level.WARNING, "scheduler: cannot read the schedules (database down?); nothing fires until it"
                        + " answers: {0}", e.toString());
            }
        } finally {
            busy.set(false);
        }
    }

    /** Starts a dispatcher's round on the executor unless one still runs; a refused one waits for the next tick. */
    private void sendPending() {
        if (!sending.compareAndSet(false, true)) {
            return;
        }
        try {
            executor.execute(() -> {
                try {
                    dispatcher.dispatchPending();
                } catch (RuntimeException e) {
                    log.log(Level.FINE, "scheduler: queued runs not sent this tick (database down?): {0}", e.toString());
                } finally {
                    sending.set(false);
                }
            });
        } catch (RejectedExecutionException e) {
            sending.set(false);
            log.log(Level.FINE, "scheduler: executor busy; queued runs wait for the next tick");
        }
    }

    /**
     * Logs a look at the schedules that came later than the planner's grace (two intervals) after the
     * last one: a tick due meanwhile is then run as a catch-up although the control plane was up (the
     * machine, the timer or a lock wait was too slow). At most once a minute.
     */
    private void noteLateness(long now) {
        long previous = lastLook;
        lastLook = now;
        long gapMs = (now - previous) / 1_000_000;
        long graceMs = 2 * schedules.interval().toMillis();
        if (previous != 0 && gapMs > graceMs && (lastLateLog == 0 || (now - lastLateLog) / 1_000_000 > LATE_LOG_EVERY_MS)) {
            lastLateLog = now;
            log.log(Level.WARNING, "scheduler: {0} ms since the last look at the schedules (more than the {1} ms grace): a tick due"
                    + " meanwhile runs as a catch-up; the machine, the timer or a lock wait was slow", new Object[] {gapMs, graceMs});
        }
    }
}
