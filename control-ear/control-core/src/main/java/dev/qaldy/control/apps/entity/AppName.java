package dev.qaldy.control.apps.entity;

import dev.qaldy.contract.apps.AppLabel;
import dev.qaldy.control.platform.control.InvalidInput;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The rule for app names: a DNS label (every app is served on its own origin, {@code <name>.<base domain>}),
 * lower case, and none of the names the platform keeps for itself.
 */
public final class AppName {

    /** 1 to 63 characters of a-z, 0-9 and '-', starting and ending with a letter or digit ({@link AppLabel}, the edge's rule too). */
    public static final Pattern LABEL = AppLabel.PATTERN;
    /** Names that would collide with the platform's own hosts. */
    public static final Set<String> RESERVED = Set.of("api", "console", "www", "hooks", "status", "admin", "qaldy",
            "localhost");

    private AppName() {
    }

    /**
     * Checks a proposed name.
     *
     * @return the name, unchanged
     * @throws InvalidInput naming the rule that the name breaks
     */
    public static String check(String name) {
        if (name == null || name.isEmpty()) {
            throw new InvalidInput("an app name is required");
        }
        if (!LABEL.matcher(name).matches()) {
            throw new InvalidInput("The app name \"" + shorten(name) + "\" cannot be part of a web address. Choose a name"
                    + " of 1 to 63 characters of lower-case letters a-z, digits 0-9 and '-', starting and ending with a"
                    + " letter or digit, like my-app (no dots, no upper case).");
        }
        if (name.length() >= 4 && name.startsWith("--", 2)) {
            // RFC 5891 §4.2.3.1: "--" in the 3rd and 4th places is kept for IDNA (xn--…): such a
            // label would be read as another name by browsers.
            throw new InvalidInput("app name \"" + name + "\" has \"--\" in the 3rd and 4th places, which DNS keeps for"
                    + " internationalized names (xn--…); choose another name");
        }
        if (RESERVED.contains(name)) {
            throw new InvalidInput("app name \"" + name + "\" is reserved; reserved names are "
                    + String.join(", ", RESERVED.stream().sorted().toList()));
        }
        return name;
    }

    /** Whether {@code name} could be an app's name (for path parameters: anything else is simply not found). */
    public static boolean isWellFormed(String name) {
        return name != null && LABEL.matcher(name).matches();
    }

    private static String shorten(String text) {
        return text.length() > 70 ? text.substring(0, 70) + "…" : text;
    }
}
