package dev.qaldy.gate.session;

import java.util.Locale;

/**
 * Where to send someone after sign-in: a path on the same origin only. Anything that a browser
 * could read as another origin ({@code //host}, {@code /\host}, a scheme) or that carries control
 * characters becomes {@code /}.
 */
public final class ReturnPath {

    /** Longest return path kept, in characters. */
    static final int MAX_LENGTH = 2048;

    private ReturnPath() {
    }

    /** The path itself when safe, else {@code /}. */
    public static String sanitize(String candidate) {
        if (candidate == null || candidate.isEmpty() || candidate.length() > MAX_LENGTH) {
            return "/";
        }
        if (candidate.charAt(0) != '/' || candidate.startsWith("//") || candidate.startsWith("/\\")) {
            return "/";
        }
        for (int i = 0; i < candidate.length(); i++) {
            char c = candidate.charAt(i);
            if (c <= 0x20 || c >= 0x7f || c == '\\') {
                return "/";
            }
        }
        if (candidate.toLowerCase(Locale.ROOT).startsWith("/.qaldy")) {
            return "/";
        }
        return candidate;
    }
}
