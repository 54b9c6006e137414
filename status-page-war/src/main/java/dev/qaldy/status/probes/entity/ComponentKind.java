package dev.qaldy.status.probes.entity;

import java.util.Locale;
import java.util.Optional;

/**
 * The parts of a cell the status page shows, in the order it shows them. Gate, control plane and
 * runtime host are probed at their own {@code /health/ready}; database, builder and scheduler run
 * inside or behind the control plane and are read from checks named in its readiness answer.
 */
public enum ComponentKind {
    GATE("gate", "Gate", "The front door every app and the console go through.", true),
    CONTROL("control", "Control plane", "The API behind sign-in, sharing, builds and every change.", true),
    DATABASE("database", "Database", "Where the API keeps accounts, apps and settings.", false),
    RUNTIME("runtime", "Runtime host", "Runs the apps.", true),
    BUILDER("builder", "Builder", "Builds new versions of apps.", false),
    SCHEDULER("scheduler", "Scheduler", "Starts scheduled jobs.", false);

    private final String key;
    private final String title;
    private final String role;
    private final boolean probedDirectly;

    ComponentKind(String key, String title, String role, boolean probedDirectly) {
        this.key = key;
        this.title = title;
        this.role = role;
        this.probedDirectly = probedDirectly;
    }

    /** The word used in config, ids and the page's {@code data-component} attribute. */
    public String key() {
        return key;
    }

    /** The name people read, e.g. "Control plane". */
    public String title() {
        return title;
    }

    /** What it does, in plain words for people who do not know the cell's parts. */
    public String role() {
        return role;
    }

    /** True for kinds with a base URL of their own; false for kinds read from the control plane. */
    public boolean probedDirectly() {
        return probedDirectly;
    }

    /** The kind a config entry names ({@code gate}, {@code control}, {@code runtime}); others are not configurable. */
    public static Optional<ComponentKind> configurable(String word) {
        String key = word.trim().toLowerCase(Locale.ROOT);
        for (ComponentKind kind : values()) {
            if (kind.probedDirectly && kind.key.equals(key)) {
                return Optional.of(kind);
            }
        }
        return Optional.empty();
    }

    /**
     * True when a check in the control plane's readiness answer is about this kind: a name
     * containing "database", "datasource" or starting with "db"/"jdbc" for the database, containing
     * "build" for the builder, "schedul" for the scheduler (case-insensitive).
     */
    public boolean namesCheck(String checkName) {
        String name = checkName == null ? "" : checkName.toLowerCase(Locale.ROOT);
        return switch (this) {
            case DATABASE -> name.contains("database") || name.contains("datasource")
                    || name.matches("(db|jdbc)([-_. :/].*)?");
            case BUILDER -> name.contains("build");
            case SCHEDULER -> name.contains("schedul");
            default -> false;
        };
    }
}
