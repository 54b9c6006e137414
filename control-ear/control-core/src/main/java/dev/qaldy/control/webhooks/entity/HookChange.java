package dev.qaldy.control.webhooks.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;
import java.util.Objects;

/**
 * The last change of one hook name of one app, for the gates' feed (issue 17): made, or deleted
 * (a tombstone, kept so a gate that was away forgets the hook's secret too). One row per
 * (app, hook), its sequence from {@link HookClock}. Holds no secret: the feed reads it from the hook.
 */
@Entity
@Table(name = "HOOK_CHANGES")
@NamedQuery(name = HookChange.CHANGED_SINCE, query = "SELECT c FROM HookChange c WHERE c.sequence > :since ORDER BY c.sequence")
public class HookChange {

    public static final String CHANGED_SINCE = "HookChange.changedSince";

    /** {@code <app>/<hook>}. */
    @Id
    @Column(name = "HOOK_KEY", length = 104)
    private String key;

    @Column(name = "APP_NAME", nullable = false, length = 63)
    private String appName;

    @Column(name = "HOOK_NAME", nullable = false, length = 40)
    private String hookName;

    @Column(name = "SEQUENCE", nullable = false)
    private long sequence;

    @Column(name = "DELETED", nullable = false)
    private boolean deleted;

    protected HookChange() {
    }

    public HookChange(String appName, String hookName) {
        this.appName = Objects.requireNonNull(appName, "appName");
        this.hookName = Objects.requireNonNull(hookName, "hookName");
        this.key = key(appName, hookName);
    }

    public static String key(String appName, String hookName) {
        return appName + "/" + hookName;
    }

    /** The hook was made (or made again) or deleted, as change {@code sequence}. */
    public void changed(long sequence, boolean deleted) {
        this.sequence = sequence;
        this.deleted = deleted;
    }

    public String appName() {
        return appName;
    }

    public String hookName() {
        return hookName;
    }

    public long sequence() {
        return sequence;
    }

    public boolean deleted() {
        return deleted;
    }
}
