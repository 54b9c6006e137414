package dev.qaldy.control.apps.entity;

import dev.qaldy.control.platform.control.InvalidInput;
import java.util.Locale;

/**
 * What an app is. {@link #APP}: opened by its owner and the people it is shared with, after
 * sign-in. {@link #SITE}: a public site of static files that anyone may open on its own origin
 * without signing in (the gate's shield and the spending cap still apply; sharing does not).
 * Anything unknown or unset is {@link #APP}: never public by default.
 */
public enum AppKind {

    APP("app"),
    SITE("site");

    private final String json;

    AppKind(String json) {
        this.json = json;
    }

    /** {@code "app"} or {@code "site"}, as the API and the database spell it. */
    public String json() {
        return json;
    }

    /** True for a public site: no sign-in, no sharing. */
    public boolean isPublic() {
        return this == SITE;
    }

    /**
     * The kind a person asked for.
     *
     * @throws InvalidInput for anything but {@code "app"} or {@code "site"}
     */
    public static AppKind parse(String text) {
        String value = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        for (AppKind kind : values()) {
            if (kind.json.equals(value)) {
                return kind;
            }
        }
        throw new InvalidInput("\"kind\" must be \"app\" (sign-in, shared by email) or \"site\" (public, no sign-in)");
    }

    /** The kind stored in the database; null (rows from before kinds existed) or unknown reads as {@link #APP}. */
    public static AppKind stored(String column) {
        return SITE.json.equals(column) ? SITE : APP;
    }
}
