package dev.qaldy.control.shield.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.Objects;

/**
 * One app's shield settings and the sequence of their last change. Kept by app name, not tied to
 * the app's row: when the app is deleted its settings are cleared with a new sequence rather than
 * removed, so every gate learns to forget them (a deleted row would never reach a gate's feed).
 */
@Entity
@Table(name = "APP_SHIELDS")
@NamedQuery(name = AppShield.CHANGED_SINCE, query = "SELECT s FROM AppShield s WHERE s.sequence > :since ORDER BY s.sequence")
public class AppShield {

    public static final String CHANGED_SINCE = "AppShield.changedSince";

    @Id
    @Column(name = "APP_NAME", length = 63)
    private String app;

    @Column(name = "PER_CLIENT_PER_MINUTE")
    private Long perClientPerMinute;

    @Column(name = "PER_APP_PER_MINUTE")
    private Long perAppPerMinute;

    @Column(name = "PER_APP_PER_DAY")
    private Long perAppPerDay;

    /** Newline-separated. */
    @Column(name = "BLOCKED_USER_AGENTS", length = 4200)
    private String blockedUserAgents;

    /** Newline-separated. */
    @Column(name = "DENIED_CIDRS", length = 2500)
    private String deniedCidrs;

    /** An IANA zone id, or null: the gate's default zone. */
    @Column(name = "DAY_ZONE", length = ShieldRules.MAX_ZONE_LENGTH)
    private String dayZone;

    @Column(name = "SEQ", nullable = false)
    private long sequence;

    /** Epoch milliseconds. */
    @Column(name = "UPDATED_AT", nullable = false)
    private long updatedAt;

    protected AppShield() {
    }

    public AppShield(String app) {
        this.app = Objects.requireNonNull(app, "app");
    }

    /** Replaces the settings, stamped with {@code sequence} (from the shield clock) and {@code now}. */
    public void set(ShieldRules rules, long sequence, Instant now) {
        perClientPerMinute = rules.perClientPerMinute();
        perAppPerMinute = rules.perAppPerMinute();
        perAppPerDay = rules.perAppPerDay();
        blockedUserAgents = String.join("\n", rules.blockedUserAgents());
        deniedCidrs = String.join("\n", rules.deniedCidrs());
        dayZone = rules.dayZone();
        this.sequence = sequence;
        this.updatedAt = now.toEpochMilli();
    }

    public String app() {
        return app;
    }

    public ShieldRules rules() {
        return new ShieldRules(perClientPerMinute, perAppPerMinute, perAppPerDay, ShieldRules.lines(blockedUserAgents),
                ShieldRules.lines(deniedCidrs), dayZone);
    }

    public long sequence() {
        return sequence;
    }

    public Instant updatedAt() {
        return Instant.ofEpochMilli(updatedAt);
    }
}
