package dev.qaldy.gate.platform;

import java.util.regex.Pattern;

/** What an app's name may be: one DNS label, since every app lives at {@code <name>.<base domain>}. */
public final class AppName {

    /** 1–63 of a-z, 0-9 and '-', not starting or ending with '-'. */
    public static final Pattern PATTERN = Pattern.compile("[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?");

    private AppName() {
    }

    public static boolean valid(String name) {
        return name != null && PATTERN.matcher(name).matches();
    }
}
