package dev.qaldy.control.audit.entity;

import java.util.Objects;

/**
 * The CDI event a boundary fires for every change worth auditing; {@code audit.control} persists it
 * in the same transaction as the change.
 *
 * @param actor   email of who did it
 * @param action  one of the {@code *} constants, e.g. {@link #APP_CREATE}
 * @param appId   the app concerned, or {@code null} for a person's own actions
 * @param appName the app's name at the time, or {@code null}
 * @param target  what was acted on: an email, an app name, {@code "version 3"}
 */
public record Audited(String actor, String action, Long appId, String appName, String target) {

    public static final String SIGN_UP = "sign-up";
    public static final String SIGN_IN = "sign-in";
    public static final String SIGN_OUT = "sign-out";
    public static final String APP_CREATE = "app.create";
    public static final String APP_DELETE = "app.delete";
    /** The app became a public site or an app behind sign-in again; the target is the new kind. */
    public static final String APP_KIND = "app.kind";
    /** The owner chose whether every build goes live by itself; the target is the new value, true or false. */
    public static final String APP_PROMOTE_EVERY_BUILD = "app.promote-every-build";
    public static final String BUILD = "build";
    public static final String PROMOTE = "promote";
    public static final String SHARE = "share";
    public static final String REVOKE = "revoke";
    /** The owner changed the app's shield settings; the target summarises them. */
    public static final String SHIELD = "shield";

    public Audited {
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(target, "target");
    }

    /** An action of a person on their own account. */
    public static Audited personal(String email, String action) {
        return new Audited(email, action, null, null, email);
    }
}
