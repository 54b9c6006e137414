package dev.qaldy.control.builds.entity;

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
import jakarta.persistence.JoinColumn;
import jakarta.persistence.Lob;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import jakarta.persistence.UniqueConstraint;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One build of an app: version {@code version} made from one upload. Once it succeeded its SHA-256
 * and seal are set for good: a built version never changes.
 */
@Entity
@Table(name = "BUILDS", uniqueConstraints = @UniqueConstraint(name = "BUILDS_APP_VERSION_UQ", columnNames = {"APP_ID", "VERSION"}))
@NamedQuery(name = Build.OF_APP, query = "SELECT b FROM Build b WHERE b.app = :app ORDER BY b.version DESC")
@NamedQuery(name = Build.BY_VERSION, query = "SELECT b FROM Build b WHERE b.app = :app AND b.version = :version")
@NamedQuery(name = Build.UNFINISHED, query = "SELECT b FROM Build b WHERE b.status IN :statuses AND b.createdAt < :before")
@NamedQuery(name = Build.DELETE_OF_APP, query = "DELETE FROM Build b WHERE b.app = :app")
public class Build {

    public static final String OF_APP = "Build.ofApp";
    public static final String BY_VERSION = "Build.byVersion";
    public static final String UNFINISHED = "Build.unfinished";
    public static final String DELETE_OF_APP = "Build.deleteOfApp";
    /** Most log lines kept per build; the rest is summarized in one line. */
    static final int MAX_LOG_LINES = 200;
    static final int MAX_LOG_LINE_LENGTH = 500;

    @Id
    @SequenceGenerator(name = "BUILDS_SEQ", sequenceName = "BUILDS_SEQ", allocationSize = 20)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "BUILDS_SEQ")
    private Long id;

    @ManyToOne(optional = false)
    @JoinColumn(name = "APP_ID", nullable = false)
    private App app;

    @Column(name = "VERSION", nullable = false)
    private long version;

    @Enumerated(EnumType.STRING)
    @Column(name = "STATUS", nullable = false, length = 16)
    private BuildStatus status;

    @Column(name = "SHA256", length = 64)
    private String sha256;

    @Column(name = "SEAL", length = 4096)
    private String seal;

    @Lob
    @Basic(fetch = FetchType.EAGER)
    @Column(name = "BUILD_LOG")
    private String log;

    /**
     * The job handlers its server.js registers, comma-separated ({@code ""}: none), as the builder read
     * them; null when not known (built before this was recorded, or registered in a way the builder
     * cannot read). At most 100 names of at most 64 characters.
     */
    @Column(name = "JOBS", length = 6600)
    private String jobs;

    @Column(name = "CREATED_BY", nullable = false, length = 254)
    private String createdBy;

    /** Size of the uploaded archive, in bytes. */
    @Column(name = "UPLOAD_BYTES", nullable = false)
    private long uploadBytes;

    /** Epoch milliseconds. */
    @Column(name = "CREATED_AT", nullable = false)
    private long createdAt;

    /** Epoch milliseconds, or null while unfinished. */
    @Column(name = "FINISHED_AT")
    private Long finishedAt;

    protected Build() {
    }

    public Build(App app, long version, String createdBy, long uploadBytes, Instant createdAt) {
        this.app = Objects.requireNonNull(app, "app");
        this.version = version;
        this.createdBy = createdBy;
        this.uploadBytes = uploadBytes;
        this.createdAt = createdAt.toEpochMilli();
        this.status = BuildStatus.QUEUED;
        this.log = "";
    }

    /** The builder picked it up. */
    public void start() {
        requireStatus(BuildStatus.QUEUED);
        status = BuildStatus.RUNNING;
    }

    /**
     * The bundle was written and sealed.
     *
     * @param jobs the job names its server.js registers, comma-separated; null when not known
     */
    public void succeed(String sha256, String seal, String jobs, List<String> lines, Instant at) {
        requireStatus(BuildStatus.RUNNING);
        this.sha256 = Objects.requireNonNull(sha256, "sha256");
        this.seal = Objects.requireNonNull(seal, "seal");
        this.jobs = jobs;
        finish(BuildStatus.SUCCEEDED, lines, at);
    }

    /** The archive was refused or the builder could not finish; a failed build stays failed. */
    public void fail(List<String> lines, Instant at) {
        if (status.isFinal()) {
            throw new IllegalStateException("build " + version + " of " + app.name() + " is already " + status.label());
        }
        finish(BuildStatus.FAILED, lines, at);
    }

    private void finish(BuildStatus outcome, List<String> lines, Instant at) {
        this.status = outcome;
        this.log = boundedLog(lines);
        this.finishedAt = at.toEpochMilli();
    }

    private void requireStatus(BuildStatus expected) {
        if (status != expected) {
            throw new IllegalStateException("build " + version + " of " + app.name() + " is " + status.label()
                    + ", not " + expected.label());
        }
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

    /** The job names its server.js registers, comma-separated ({@code ""}: none); null when not known. */
    public String jobs() {
        return jobs;
    }

    public Long id() {
        return id;
    }

    public App app() {
        return app;
    }

    public long version() {
        return version;
    }

    public BuildStatus status() {
        return status;
    }

    /** Lower-case hex SHA-256 of the bundle, or {@code null} unless succeeded. */
    public String sha256() {
        return sha256;
    }

    /** The bundle seal (compact JWS), or {@code null} unless succeeded. */
    public String seal() {
        return seal;
    }

    public List<String> logLines() {
        return log == null || log.isEmpty() ? List.of() : List.of(log.split("\n"));
    }

    public String createdBy() {
        return createdBy;
    }

    public Instant createdAt() {
        return Instant.ofEpochMilli(createdAt);
    }

    /** When it finished, or {@code null}. */
    public Instant finishedAt() {
        return finishedAt == null ? null : Instant.ofEpochMilli(finishedAt);
    }
}
