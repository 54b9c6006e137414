package dev.qaldy.control.webhooks.entity;

import dev.qaldy.control.apps.entity.App;
import dev.qaldy.control.platform.control.InvalidInput;
import dev.qaldy.control.schedules.entity.JobName;
import dev.qaldy.contract.hooks.HookMaterial;
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
import jakarta.persistence.UniqueConstraint;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A webhook of an app: {@code POST /hooks/<app>/<name>} signed with its secret queues a run of
 * its job. The secret is kept to check signatures (HMAC needs it) and shown only once, when the
 * hook is created or its secret rolled; after a roll the previous secret stays in force for a while
 * the owner chose (Stripe's "roll secret"), so senders switch without a gap. Not cached: several
 * control planes share one database.
 */
@Entity
@Table(name = "HOOKS", uniqueConstraints = @UniqueConstraint(name = "HOOKS_APP_NAME_UQ", columnNames = {"APP_ID", "NAME"}))
@NamedQuery(name = Hook.OF_APP, query = "SELECT h FROM Hook h WHERE h.app = :app ORDER BY h.name")
@NamedQuery(name = Hook.BY_NAME, query = "SELECT h FROM Hook h WHERE h.app = :app AND h.name = :name")
@NamedQuery(name = Hook.DELETE_OF_APP, query = "DELETE FROM Hook h WHERE h.app = :app")
public class Hook {

    public static final String OF_APP = "Hook.ofApp";
    public static final String BY_NAME = "Hook.byName";
    public static final String DELETE_OF_APP = "Hook.deleteOfApp";
    public static final String AUDIT_CREATE = "hook.create";
    public static final String AUDIT_DELETE = "hook.delete";
    public static final String AUDIT_ROLL = "hook.roll-secret";
    /** Longest a rolled-over secret stays in force (Stripe's longest choice: 7 days). */
    public static final Duration MAX_PREVIOUS = Duration.ofDays(7);
    /** Hook names: 1 to 40 of a-z, 0-9 and '-' (they are a URL path segment). */
    public static final Pattern NAME = HookMaterial.NAME;

    @Id
    @SequenceGenerator(name = "HOOKS_SEQ", sequenceName = "HOOKS_SEQ", allocationSize = 10)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "HOOKS_SEQ")
    private Long id;

    @ManyToOne(optional = false)
    @JoinColumn(name = "APP_ID", nullable = false)
    private App app;

    @Column(name = "NAME", nullable = false, length = 40)
    private String name;

    @Column(name = "JOB", nullable = false, length = 64)
    private String job;

    @Column(name = "SECRET", nullable = false, length = 128)
    private String secret;

    /** Epoch ms from which {@link #secret} is in force. */
    @Column(name = "SECRET_SINCE", nullable = false)
    private long secretSince;

    @Column(name = "PREVIOUS_SECRET", length = 128)
    private String previousSecret;

    /** Epoch ms until which {@link #previousSecret} is in force; null with no previous secret. */
    @Column(name = "PREVIOUS_UNTIL")
    private Long previousUntil;

    @Column(name = "CREATED_BY", nullable = false, length = 254)
    private String createdBy;

    @Column(name = "CREATED_AT", nullable = false)
    private long createdAt;

    protected Hook() {
    }

    public Hook(App app, String name, String job, String secret, String createdBy, Instant createdAt) {
        this.app = Objects.requireNonNull(app, "app");
        this.name = checkName(name);
        this.job = JobName.check(job);
        this.secret = Objects.requireNonNull(secret, "secret");
        this.createdBy = createdBy;
        this.createdAt = createdAt.toEpochMilli();
        this.secretSince = this.createdAt;
    }

    /**
     * Puts {@code secret} in force from {@code now}; the one it replaces stays in force for {@code keepPrevious}
     * (zero: it stops now), and any older one is forgotten. The replaced one is remembered even when it stops
     * at once: a delivery a gate checked with it before the roll is still handed over ({@link #secretsAt}).
     *
     * @throws InvalidInput when {@code keepPrevious} is negative or longer than {@link #MAX_PREVIOUS}
     */
    public void roll(String secret, Instant now, Duration keepPrevious) {
        if (keepPrevious.isNegative() || keepPrevious.compareTo(MAX_PREVIOUS) > 0) {
            throw new InvalidInput("the previous secret can stay in force from 0 seconds to 7 days (604800 seconds)");
        }
        this.previousSecret = this.secret;
        this.previousUntil = now.plus(keepPrevious).toEpochMilli();
        this.secret = Objects.requireNonNull(secret, "secret");
        this.secretSince = now.toEpochMilli();
    }

    /** When the rolled-over secret stops being accepted for new deliveries, or null when it already has (or there is none). */
    public Instant previousAcceptedUntil(Instant now) {
        return previousSecret != null && previousUntil != null && previousUntil > now.toEpochMilli() ? Instant.ofEpochMilli(previousUntil)
                : null;
    }

    /**
     * The secrets that were in force at {@code at}, the current one first: the current one from its roll (or the
     * hook's creation) on, the previous one until its end. A delivery signed with any of them was signed right then.
     */
    public List<String> secretsAt(Instant at) {
        long t = at.toEpochMilli();
        List<String> secrets = new ArrayList<>(2);
        if (t >= secretSince) {
            secrets.add(secret);
        }
        if (previousSecret != null && previousUntil != null && t < previousUntil && t >= createdAt) {
            secrets.add(previousSecret);
        }
        return secrets;
    }

    /** When the current secret came into force. */
    public Instant secretSince() {
        return Instant.ofEpochMilli(secretSince);
    }

    /** The rolled-over secret while it may still be in force, else null; see {@link #previousUntil}. */
    public String previousSecret() {
        return previousSecret;
    }

    /** When the rolled-over secret stops being in force, or null when there is none. */
    public Instant previousUntil() {
        return previousUntil == null ? null : Instant.ofEpochMilli(previousUntil);
    }

    /**
     * What the gates are told of this hook as change {@code sequence} (issue 17); a rolled-over
     * secret already stopped at {@code now} is left out.
     */
    public HookMaterial material(long sequence, Instant now) {
        boolean previous = previousAcceptedUntil(now) != null;
        Long owner = app.owner().id();
        return new HookMaterial(app.name(), name, sequence, job, previous ? List.of(secret, previousSecret()) : List.of(secret),
                secretSince().toEpochMilli(), previous ? previousUntil().toEpochMilli() : 0, owner == null ? 0 : owner, false);
    }

    /** @throws InvalidInput unless {@code name} is 1 to 40 of a-z, 0-9 and '-' */
    public static String checkName(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new InvalidInput("a hook name is 1 to 40 characters of lower-case letters a-z, digits 0-9 and '-'");
        }
        return name;
    }

    /** Whether {@code name} could be a hook's name (path parameters: anything else is simply not found). */
    public static boolean isWellFormed(String name) {
        return name != null && NAME.matcher(name).matches();
    }

    public Long id() {
        return id;
    }

    public App app() {
        return app;
    }

    public String name() {
        return name;
    }

    public String job() {
        return job;
    }

    public String secret() {
        return secret;
    }

    public Instant createdAt() {
        return Instant.ofEpochMilli(createdAt);
    }
}
