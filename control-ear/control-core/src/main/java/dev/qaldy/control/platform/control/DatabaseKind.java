package dev.qaldy.control.platform.control;

import java.util.Locale;
import org.eclipse.persistence.platform.database.DatabasePlatform;
import org.eclipse.persistence.platform.database.H2Platform;
import org.eclipse.persistence.platform.database.PostgreSQLPlatform;

/**
 * Which database the control plane runs on (issue 19): system property {@code qaldy.db}, {@code h2}
 * (the default, the embedded cell) or {@code postgres}, set by bin/qaldy from {@code --db}. Named,
 * not detected: detecting needs a connection at start, and the control plane starts while its
 * database is down ({@link StartWithoutDatabase}).
 */
public enum DatabaseKind {
    H2,
    POSTGRES;

    /** The system property naming it. */
    public static final String PROPERTY = "qaldy.db";

    /**
     * The kind this process was started with.
     *
     * @throws IllegalStateException {@code qaldy.db} is neither {@code h2} nor {@code postgres}
     */
    public static DatabaseKind current() {
        String name = System.getProperty(PROPERTY, "h2").trim().toLowerCase(Locale.ROOT);
        return switch (name) {
            case "h2" -> H2;
            case "postgres", "postgresql" -> POSTGRES;
            default -> throw new IllegalStateException("-D" + PROPERTY + " must be h2 or postgres, not '" + name + "'");
        };
    }

    /** EclipseLink's platform for it. */
    DatabasePlatform platform() {
        return this == H2 ? new H2Platform() : new PostgreSQLPlatform();
    }
}
