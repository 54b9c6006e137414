package dev.qaldy.control.apps.entity;

import dev.qaldy.control.people.entity.Person;
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
import java.time.Instant;
import java.util.Objects;

/**
 * An app: its unique name, its owner, its kind (an app behind sign-in, or a public site), the
 * version that is live, the last build version handed out, and a sharing version that grows with every share or revoke (the gate drops remembered answers
 * older than the newest sharing version it has seen).
 */
@Entity
@Table(name = "APPS", uniqueConstraints = @UniqueConstraint(name = "APPS_NAME_UQ", columnNames = "NAME"))
@NamedQuery(name = App.BY_NAME, query = "SELECT a FROM App a WHERE a.name = :name")
@NamedQuery(name = App.OWNED_BY, query = "SELECT a FROM App a WHERE a.owner.id = :personId ORDER BY a.name")
@NamedQuery(name = App.SHARED_WITH, query = "SELECT a FROM App a WHERE EXISTS (SELECT s FROM Share s"
        + " WHERE s.app = a AND s.email = :email) ORDER BY a.name")
public class App {

    public static final String BY_NAME = "App.byName";
    public static final String OWNED_BY = "App.ownedBy";
    public static final String SHARED_WITH = "App.sharedWith";

    @Id
    @SequenceGenerator(name = "APPS_SEQ", sequenceName = "APPS_SEQ", allocationSize = 20)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "APPS_SEQ")
    private Long id;

    @Column(name = "NAME", nullable = false, length = 63)
    private String name;

    @ManyToOne(optional = false)
    @JoinColumn(name = "OWNER_ID", nullable = false)
    private Person owner;

    /** Epoch milliseconds. */
    @Column(name = "CREATED_AT", nullable = false)
    private long createdAt;

    @Column(name = "LIVE_VERSION")
    private Long liveVersion;

    /**
     * The live-clock sequence ({@code LiveClock}) of the change that made {@link #liveVersion} live;
     * null before the first promote, and in rows promoted before the clock existed until the live
     * answer first assigns one.
     */
    @Column(name = "LIVE_SEQUENCE")
    private Long liveSequence;

    @Column(name = "LAST_VERSION", nullable = false)
    private long lastVersion;

    @Column(name = "SHARING_VERSION", nullable = false)
    private long sharingVersion;

    /**
     * True: every build that succeeds goes live by itself (the owner's choice on the console's Settings
     * tab). False or null (rows from before the setting): only the first one does, later ones wait for Promote.
     */
    @Column(name = "PROMOTE_EVERY_BUILD")
    private Boolean promoteEveryBuild;

    /** {@code "app"} or {@code "site"}; null in rows from before kinds existed, which read as an app. */
    @Column(name = "KIND", length = 8)
    private String kind;

    protected App() {
    }

    /** @param name a name that passed {@link AppName#check} */
    public App(String name, Person owner, Instant createdAt) {
        this(name, owner, createdAt, AppKind.APP);
    }

    /** @param name a name that passed {@link AppName#check} */
    public App(String name, Person owner, Instant createdAt, AppKind kind) {
        this.name = Objects.requireNonNull(name, "name");
        this.owner = Objects.requireNonNull(owner, "owner");
        this.createdAt = createdAt.toEpochMilli();
        this.kind = Objects.requireNonNull(kind, "kind").json();
    }

    public Long id() {
        return id;
    }

    public String name() {
        return name;
    }

    public Person owner() {
        return owner;
    }

    public boolean isOwnedBy(long personId) {
        return owner.id() == personId;
    }

    public Instant createdAt() {
        return Instant.ofEpochMilli(createdAt);
    }

    /** The live version, or {@code null} before the first promote. */
    public Long liveVersion() {
        return liveVersion;
    }

    public long sharingVersion() {
        return sharingVersion;
    }

    /** Hands out the next build version: 1, 2, 3… never reused, even after a failed build. */
    public long nextBuildVersion() {
        return ++lastVersion;
    }

    /** The live-clock sequence of the live version, or {@code null} (see the field). */
    public Long liveSequence() {
        return liveSequence;
    }

    /**
     * Makes {@code version} live as live-clock change {@code sequence}; the caller has checked that it
     * built successfully and took the sequence from the clock in this transaction.
     */
    public void promote(long version, long sequence) {
        if (version < 1 || version > lastVersion) {
            throw new IllegalArgumentException("no version " + version + " of " + name);
        }
        if (sequence < 1 || (liveSequence != null && sequence <= liveSequence)) {
            throw new IllegalArgumentException("live-clock sequences only grow: " + sequence + " after " + liveSequence);
        }
        this.liveVersion = version;
        this.liveSequence = sequence;
    }

    /** Gives a live version promoted before the live clock existed its sequence (once). */
    public void assignLiveSequence(long sequence) {
        if (liveVersion == null || liveSequence != null) {
            throw new IllegalStateException(name + " has no live version without a sequence");
        }
        this.liveSequence = sequence;
    }

    /** True when every succeeded build goes live by itself; false when only the first one does. */
    public boolean promotesEveryBuild() {
        return Boolean.TRUE.equals(promoteEveryBuild);
    }

    /** Sets whether every succeeded build goes live by itself (true) or only the first one (false). */
    public void promoteEveryBuild(boolean every) {
        this.promoteEveryBuild = every;
    }

    /** An app (sign-in) or a public site; never public unless set so. */
    public AppKind kind() {
        return AppKind.stored(kind);
    }

    /**
     * Makes the app an app or a public site. Who may open it changes with it, so the caller bumps
     * the sharing version too ({@link #sharingChanged}): every gate then drops what it remembered.
     */
    public void changeKind(AppKind kind) {
        this.kind = Objects.requireNonNull(kind, "kind").json();
    }

    /**
     * Records a change of who may open the app (or its creation) as change {@code sequence} of the
     * cell-wide sharing feed; returns the new sharing version: {@code sequence}, or one more than the
     * last when that is higher (rows from before versions were feed places).
     *
     * <p>Versions are feed places so that they only rise per <em>name</em>, across a deletion and a
     * new app under the same name: a gate keeps the newest version it saw of a name and never
     * remembers an answer older than it (issue 14: a re-created app's answers were never remembered,
     * so its people had no copy during an outage).
     */
    public long sharingChanged(long sequence) {
        sharingVersion = Math.max(sharingVersion + 1, sequence);
        return sharingVersion;
    }
}
