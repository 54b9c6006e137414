package dev.qaldy.control.billing.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import jakarta.persistence.UniqueConstraint;
import java.util.Objects;

/** An app's billed usage in one period: requests, CPU milliseconds and their cost, for its owner's account. */
@Entity
@Table(name = "BILLING_USAGE", uniqueConstraints = @UniqueConstraint(name = "BILLING_USAGE_UQ",
        columnNames = {"PERSON_ID", "PERIOD", "APP_NAME"}))
@NamedQuery(name = UsageRecord.FIND, query = "SELECT u FROM UsageRecord u WHERE u.personId = :personId"
        + " AND u.period = :period AND u.app = :app")
@NamedQuery(name = UsageRecord.OF_ACCOUNT, query = "SELECT u FROM UsageRecord u WHERE u.personId = :personId"
        + " AND u.period = :period ORDER BY u.app")
@NamedQuery(name = UsageRecord.SPENT, query = "SELECT COALESCE(SUM(u.costMillicents), 0) FROM UsageRecord u"
        + " WHERE u.personId = :personId AND u.period = :period")
public class UsageRecord {

    public static final String FIND = "UsageRecord.find";
    public static final String OF_ACCOUNT = "UsageRecord.ofAccount";
    public static final String SPENT = "UsageRecord.spent";

    @Id
    @SequenceGenerator(name = "BILLING_USAGE_SEQ", sequenceName = "BILLING_USAGE_SEQ", allocationSize = 20)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "BILLING_USAGE_SEQ")
    private Long id;

    @Column(name = "PERSON_ID", nullable = false)
    private long personId;

    @Column(name = "PERIOD", nullable = false, length = 7)
    private String period;

    /** The app's name (kept after the app is deleted: the usage was billed). */
    @Column(name = "APP_NAME", nullable = false, length = 63)
    private String app;

    @Column(name = "REQUESTS", nullable = false)
    private long requests;

    @Column(name = "CPU_MS", nullable = false)
    private long cpuMs;

    @Column(name = "COST_MILLICENTS", nullable = false)
    private long costMillicents;

    protected UsageRecord() {
    }

    public UsageRecord(long personId, String period, String app) {
        this.personId = personId;
        this.period = Objects.requireNonNull(period, "period");
        this.app = Objects.requireNonNull(app, "app");
    }

    /** Adds usage and its cost (saturating). */
    public void add(long moreRequests, long moreCpuMs, long cost) {
        requests = plus(requests, moreRequests);
        cpuMs = plus(cpuMs, moreCpuMs);
        costMillicents = plus(costMillicents, cost);
    }

    private static long plus(long a, long b) {
        long sum = a + Math.max(0, b);
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    public String app() {
        return app;
    }

    public long requests() {
        return requests;
    }

    public long cpuMs() {
        return cpuMs;
    }

    public long costMillicents() {
        return costMillicents;
    }
}
