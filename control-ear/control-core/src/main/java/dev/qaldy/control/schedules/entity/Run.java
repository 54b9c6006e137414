package dev.qaldy.control.schedules.entity;

import dev.qaldy.control.apps.entity.App;
import jakarta.persistence.Basic;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.Lob;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import jakarta.persistence.UniqueConstraint;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One run of a job handler, a row of the run queue. A scheduled run is unique per
 * (schedule, tick): the database refuses a second run of one tick, whichever control plane tries,
 * so a tick fires exactly once across restarts and processes. Webhook runs have no schedule.
 * Not cached: several control planes share one database.
 */
@Entity
@Table(name = "RUNS",
        uniqueConstraints = @UniqueConstraint(name = "RUNS_SCHEDULE_TICK_UQ", columnNames = {"SCHEDULE_ID", "TICK"}),
        indexes = {@Index(name = "RUNS_APP_IX", columnList = "APP_ID"), @Index(name = "RUNS_STATE_IX", columnList = "STATE")})
@NamedQuery(name = Run.OF_APP, query = "SELECT r FROM Run r WHERE r.appId = :appId ORDER BY r.id DESC")
@NamedQuery(name = Run.OF_APP_BEFORE, query = "SELECT r FROM Run r WHERE r.appId = :appId AND r.id < :before ORDER BY r.id DESC")
@NamedQuery(name = Run.DISPATCHABLE, query = "SELECT r.id FROM Run r WHERE r.state IN :states ORDER BY r.id")
@NamedQuery(name = Run.CLAIM, query = "UPDATE Run r SET r.state = :running, r.startedAt = :now, r.attempts = r.attempts + 1,"
        + " r.claimToken = :token WHERE r.id = :id AND r.state IN :from")
@NamedQuery(name = Run.RELEASE, query = "UPDATE Run r SET r.state = :queued, r.startedAt = NULL, r.attempts = r.attempts - 1,"
        + " r.claimToken = NULL WHERE r.id = :id AND r.state = :running AND r.claimToken = :token")
@NamedQuery(name = Run.WAIT_FOR_CAP, query = "UPDATE Run r SET r.state = :waiting WHERE r.id = :id AND r.state = :queued")
@NamedQuery(name = Run.STALE, query = "SELECT r FROM Run r WHERE r.state = :running AND r.startedAt < :before")
@NamedQuery(name = Run.DELETE_OF_APP, query = "DELETE FROM Run r WHERE r.appId = :appId")
public class Run {

    public static final String OF_APP = "Run.ofApp";
    public static final String OF_APP_BEFORE = "Run.ofAppBefore";
    public static final String DISPATCHABLE = "Run.dispatchable";
    public static final String CLAIM = "Run.claim";
    public static final String RELEASE = "Run.release";
    public static final String WAIT_FOR_CAP = "Run.waitForCap";
    public static final String STALE = "Run.stale";
    public static final String DELETE_OF_APP = "Run.deleteOfApp";
    /** Actors: an ordinary tick, the one catch-up run after an outage, a webhook delivery. */
    public static final String SCHEDULER = "scheduler";
    public static final String CATCH_UP = "scheduler.catchup";
    public static final String WEBHOOK = "webhook";
    /** The actor of a run of a delivery a gate queued while the API could not be asked, handed over later (issue 17). */
    public static final String EDGE_WEBHOOK = "webhook.edge";
    /** Audit action of every run queued. */
    public static final String AUDIT_RUN = "run";
    static final int MAX_LOG_LINES = 200;
    static final int MAX_LOG_LINE_LENGTH = 500;

    @Id
    @SequenceGenerator(name = "RUNS_SEQ", sequenceName = "RUNS_SEQ", allocationSize = 20)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "RUNS_SEQ")
    private Long id;

    /** The app's id; runs are deleted with their app. */
    @Column(name = "APP_ID", nullable = false)
    private long appId;

    @Column(name = "APP_NAME", nullable = false, length = 63)
    private String appName;

    /** The schedule that fired it, or null for a webhook run. */
    @Column(name = "SCHEDULE_ID")
    private Long scheduleId;

    /** The webhook whose delivery queued it, or null. */
    @Column(name = "HOOK_NAME", length = 40)
    private String hookName;

    @Column(name = "JOB", nullable = false, length = 64)
    private String job;

    /** Epoch milliseconds: the schedule's tick, or when the webhook delivery arrived. */
    @Column(name = "TICK", nullable = false)
    private long tick;

    @Column(name = "ACTOR", nullable = false, length = 40)
    private String actor;

    @Enumerated(EnumType.STRING)
    @Column(name = "STATE", nullable = false, length = 20)
    private RunState state;

    @Lob
    @Basic(fetch = FetchType.EAGER)
    @Column(name = "RUN_LOG")
    private String log;

    /** A webhook's body, handed to the job handler; null for scheduled runs. */
    @Lob
    @Basic(fetch = FetchType.EAGER)
    @Column(name = "PAYLOAD")
    private String payload;

    @Column(name = "ATTEMPTS", nullable = false)
    private int attempts;

    @Column(name = "CREATED_AT", nullable = false)
    private long createdAt;

    @Column(name = "STARTED_AT")
    private Long startedAt;

    @Column(name = "FINISHED_AT")
    private Long finishedAt;

    /** A random number written by the claim that made the run running, so that claim alone can release it; null when not running. */
    @Column(name = "CLAIM_TOKEN")
    private Long claimToken;

    protected Run() {
    }

    private Run(App app, Long scheduleId, String hookName, String job, Instant tick, String actor, String payload,
            Instant createdAt) {
        this(app.id(), app.name(), scheduleId, hookName, job, tick, actor, payload, createdAt);
    }

    private Run(long appId, String appName, Long scheduleId, String hookName, String job, Instant tick, String actor,
            String payload, Instant createdAt) {
        this.appId = appId;
        this.appName = Objects.requireNonNull(appName, "appName");
        this.scheduleId = scheduleId;
        this.hookName = hookName;
        this.job = JobName.check(job);
        this.tick = tick.toEpochMilli();
        this.actor = Objects.requireNonNull(actor, "actor");
        this.payload = payload;
        this.createdAt = createdAt.toEpochMilli();
        this.state = RunState.QUEUED;
        this.log = "";
    }

    /** A run of {@code schedule} for {@code tick}; {@code catchUp} tells the one catch-up run from an ordinary tick. */
    public static Run scheduled(Schedule schedule, Instant tick, boolean catchUp, Instant now) {
        return new Run(schedule.app(), schedule.id(), null, schedule.job(), tick, catchUp ? CATCH_UP : SCHEDULER, null, now);
    }

    /** A run of schedule {@code scheduleId} of app ({@code appId}, {@code appName}) for {@code tick}, from the schedule's row. */
    public static Run scheduled(long appId, String appName, long scheduleId, String job, Instant tick, boolean catchUp, Instant now) {
        return new Run(appId, appName, scheduleId, null, job, tick, catchUp ? CATCH_UP : SCHEDULER, null, now);
    }

    /** A run for one webhook delivery, carrying its body. */
    public static Run webhook(App app, String hookName, String job, String payload, Instant receivedAt) {
        return new Run(app, null, hookName, job, receivedAt, WEBHOOK, payload, receivedAt);
    }

    /**
     * A run of a delivery handed over from a gate's queue: its tick is when the gate received it.
     *
     * @param handedOverAt when the control plane recorded it
     */
    public static Run edgeWebhook(App app, String hookName, String job, String payload, Instant receivedAt, Instant handedOverAt) {
        return new Run(app, null, hookName, job, receivedAt, EDGE_WEBHOOK, payload, handedOverAt);
    }

    /** The run ended: succeeded or failed, with the handler's log lines (bounded here). */
    public void finish(boolean succeeded, List<String> lines, Instant at) {
        if (state.isFinal()) {
            return;
        }
        state = succeeded ? RunState.SUCCEEDED : RunState.FAILED;
        log = boundedLog(lines);
        finishedAt = at.toEpochMilli();
    }

    /**
     * The runtime host could not be reached, so the handler never started: the run goes back to the
     * queue and is sent again on a later tick (an accepted webhook or a tick is not lost to a
     * runtime host that restarts), until it has waited {@code maxAge} since it was queued; then it
     * fails, saying why.
     *
     * @param why what the dispatcher saw (connection refused, no connection in time)
     * @return true when it is queued again, false when it failed
     */
    public boolean undelivered(String why, Instant at, Duration maxAge) {
        if (state != RunState.RUNNING) {
            return false;
        }
        if (at.isAfter(Instant.ofEpochMilli(createdAt).plus(maxAge))) {
            finish(false, List.of("not delivered: " + why + "; the runtime host could not be reached for " + maxAge
                    + " since the run was queued, after " + attempts + " attempts"), at);
            return false;
        }
        state = RunState.QUEUED;
        startedAt = null;
        claimToken = null;
        log = boundedLog(List.of("not delivered yet (attempt " + attempts + "): " + why
                + "; the handler never started, and the run is sent again on the next tick"));
        return true;
    }

    static String boundedLog(List<String> lines) {
        List<String> kept = new ArrayList<>();
        for (String line : lines.subList(0, Math.min(lines.size(), MAX_LOG_LINES))) {
            String flat = line.replace('\n', ' ').replace('\r', ' ');
            kept.add(flat.length() > MAX_LOG_LINE_LENGTH ? flat.substring(0, MAX_LOG_LINE_LENGTH) + "…" : flat);
        }
        if (lines.size() > MAX_LOG_LINES) {
            kept.add("(" + (lines.size() - MAX_LOG_LINES) + " more lines not kept)");
        }
        return String.join("\n", kept);
    }

    public Long id() {
        return id;
    }

    public long appId() {
        return appId;
    }

    public String appName() {
        return appName;
    }

    public Long scheduleId() {
        return scheduleId;
    }

    public String hookName() {
        return hookName;
    }

    public String job() {
        return job;
    }

    public Instant tick() {
        return Instant.ofEpochMilli(tick);
    }

    public String actor() {
        return actor;
    }

    public RunState state() {
        return state;
    }

    public String payload() {
        return payload;
    }

    public int attempts() {
        return attempts;
    }

    public List<String> logLines() {
        return log == null || log.isEmpty() ? List.of() : List.of(log.split("\n"));
    }

    public Instant createdAt() {
        return Instant.ofEpochMilli(createdAt);
    }

    public Instant startedAt() {
        return startedAt == null ? null : Instant.ofEpochMilli(startedAt);
    }

    public Instant finishedAt() {
        return finishedAt == null ? null : Instant.ofEpochMilli(finishedAt);
    }
}
