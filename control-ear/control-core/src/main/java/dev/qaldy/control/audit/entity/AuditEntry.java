package dev.qaldy.control.audit.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import java.time.Instant;

/** One line of the audit log: who did what to what, when. Entries are appended, never changed. */
@Entity
@Table(name = "AUDIT_ENTRIES", indexes = {
        @Index(name = "AUDIT_ACTOR_IX", columnList = "ACTOR"),
        @Index(name = "AUDIT_APP_IX", columnList = "APP_ID")})
public class AuditEntry {

    @Id
    @SequenceGenerator(name = "AUDIT_SEQ", sequenceName = "AUDIT_SEQ", allocationSize = 50)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "AUDIT_SEQ")
    private Long id;

    @Column(name = "ACTOR", nullable = false, length = 254)
    private String actor;

    @Column(name = "ACTION", nullable = false, length = 40)
    private String action;

    /** The app's id (ids are never reused, so a later app of the same name does not inherit these). */
    @Column(name = "APP_ID")
    private Long appId;

    @Column(name = "APP_NAME", length = 63)
    private String appName;

    @Column(name = "TARGET", nullable = false, length = 300)
    private String target;

    /** Epoch milliseconds. */
    @Column(name = "AT_MS", nullable = false)
    private long at;

    protected AuditEntry() {
    }

    public AuditEntry(Audited event, Instant at) {
        this.actor = event.actor();
        this.action = event.action();
        this.appId = event.appId();
        this.appName = event.appName();
        this.target = event.target().length() > 300 ? event.target().substring(0, 300) : event.target();
        this.at = at.toEpochMilli();
    }

    public Long id() {
        return id;
    }

    public String actor() {
        return actor;
    }

    public String action() {
        return action;
    }

    /** The app's id, or null. */
    public Long appId() {
        return appId;
    }

    /** Epoch milliseconds of {@link #at()}. */
    public long atMillis() {
        return at;
    }

    public String appName() {
        return appName;
    }

    public String target() {
        return target;
    }

    public Instant at() {
        return Instant.ofEpochMilli(at);
    }
}
