package dev.qaldy.control.schedules.entity;

import dev.qaldy.control.apps.entity.App;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.Objects;

/**
 * A schedule of an app: a cron rule in a time zone and the job handler it runs. Its last fired
 * tick lives here, in our own table, so what was missed is decided from it (never from a timer
 * store) and only ever moves forward. Not cached: several control planes share one database.
 */
@Entity
@Table(name = "SCHEDULES")
@NamedQuery(name = Schedule.OF_APP, query = "SELECT s FROM Schedule s WHERE s.app = :app ORDER BY s.id")
@NamedQuery(name = Schedule.COUNT_OF_APP, query = "SELECT COUNT(s) FROM Schedule s WHERE s.app = :app")
@NamedQuery(name = Schedule.ALL_IDS, query = "SELECT s.id FROM Schedule s ORDER BY s.id")
@NamedQuery(name = Schedule.DELETE_OF_APP, query = "DELETE FROM Schedule s WHERE s.app = :app")
public class Schedule {

    public static final String OF_APP = "Schedule.ofApp";
    public static final String COUNT_OF_APP = "Schedule.countOfApp";
    public static final String ALL_IDS = "Schedule.allIds";
    public static final String DELETE_OF_APP = "Schedule.deleteOfApp";
    /** Audit actions. */
    public static final String AUDIT_CREATE = "schedule.create";
    public static final String AUDIT_DELETE = "schedule.delete";

    @Id
    @SequenceGenerator(name = "SCHEDULES_SEQ", sequenceName = "SCHEDULES_SEQ", allocationSize = 10)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "SCHEDULES_SEQ")
    private Long id;

    @ManyToOne(optional = false)
    @JoinColumn(name = "APP_ID", nullable = false)
    private App app;

    @Column(name = "CRON", nullable = false, length = CronRule.MAX_LENGTH)
    private String cron;

    @Column(name = "ZONE", nullable = false, length = 64)
    private String zone;

    @Column(name = "JOB", nullable = false, length = 64)
    private String job;

    @Column(name = "CREATED_BY", nullable = false, length = 254)
    private String createdBy;

    /** Epoch milliseconds. */
    @Column(name = "CREATED_AT", nullable = false)
    private long createdAt;

    /** Epoch milliseconds of the last tick a run was queued for; null until the first. */
    @Column(name = "LAST_FIRED_TICK")
    private Long lastFiredTick;

    protected Schedule() {
    }

    public Schedule(App app, CronRule rule, String job, String createdBy, Instant createdAt) {
        this.app = Objects.requireNonNull(app, "app");
        this.cron = rule.expression();
        this.zone = rule.zone().getId();
        this.job = JobName.check(job);
        this.createdBy = Objects.requireNonNull(createdBy, "createdBy");
        this.createdAt = createdAt.toEpochMilli();
    }

    /**
     * Records that a run was queued for {@code tick}.
     *
     * @throws IllegalStateException when {@code tick} is not after the last fired tick (ticks only move forward)
     */
    public void fired(Instant tick) {
        if (lastFiredTick != null && tick.toEpochMilli() <= lastFiredTick) {
            throw new IllegalStateException("tick " + tick + " is not after the last fired tick of schedule " + id);
        }
        lastFiredTick = tick.toEpochMilli();
    }

    public Long id() {
        return id;
    }

    public App app() {
        return app;
    }

    /** The rule; a stored expression was accepted when the schedule was added, so a seconds field is read as such. */
    public CronRule rule() {
        return CronRule.of(cron, zone, true);
    }

    public String cron() {
        return cron;
    }

    public String zone() {
        return zone;
    }

    public String job() {
        return job;
    }

    public String createdBy() {
        return createdBy;
    }

    public Instant createdAt() {
        return Instant.ofEpochMilli(createdAt);
    }

    /** The last fired tick, or null. */
    public Instant lastFiredTick() {
        return lastFiredTick == null ? null : Instant.ofEpochMilli(lastFiredTick);
    }
}
