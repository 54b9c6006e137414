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

    /** Most characters in a label (RFC 1035). */
    public static final int MAX_LENGTH = 63;

    /**
     * Whether {@code name} (null: false) is one DNS label of the shape above: the same answer as
     * {@link #PATTERN}, by a loop over its characters, since the gate asks it for every request's
     * Host (issue 15: no regular expression per request).
     */
    public static boolean valid(String name) {
        if (name == null || name.isEmpty() || name.length() > MAX_LENGTH) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean letterOrDigit = c >= 'a' && c <= 'z' || c >= '0' && c <= '9';
            if (!letterOrDigit && (c != '-' || i == 0 || i == name.length() - 1)) {
                return false;
            }
        }
        return true;
    }
}
