package dev.qaldy.contract.apps;

import java.util.regex.Pattern;

/**
 * The one rule for what an app's name may look like, for every component (issue 16: five copies
 * of this pattern): one DNS label, since every app lives on its own origin
 * {@code <name>.<base domain>}. The control plane adds its own rules for new names (reserved
 * names, IDNA's {@code --}); the edge checks only the shape.
 */
public final class AppLabel {

    /** 1 to 63 characters of a-z, 0-9 and '-', starting and ending with a letter or digit. */
    public static final Pattern PATTERN = Pattern.compile("[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?");

    private AppLabel() {
    }

    /** Whether {@code name} (null: false) is one DNS label of the shape above. */
    public static boolean valid(String name) {
        return name != null && PATTERN.matcher(name).matches();
    }
}
