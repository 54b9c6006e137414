package dev.qaldy.contract.apps;

import java.util.regex.Pattern;

/**
 * The shape of an app's name for every component (issue 16: five copies of this pattern): one DNS
 * label, as each app has its own origin {@code <name>.<base domain>}. The control plane adds its own
 * rules for new names.
 */
public final class AppLabel {

    public static final Pattern PATTERN = Pattern.compile("[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?");

    private AppLabel() {
    }

    /** RFC 1035. */
    public static final int MAX_LENGTH = 63;

    /** The same answer as {@link #PATTERN} by a loop, as the gate asks it per request (issue 15). */
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
