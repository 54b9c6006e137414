package dev.qaldy.gate.session;

import java.util.ArrayList;
import java.util.List;

/** The {@code qaldy_session} cookie on an app's origin (docs/cell-contract.md). */
public final class SessionCookie {

    public static final String NAME = "qaldy_session";

    private SessionCookie() {
    }

    /** @param secure the public origin is HTTPS */
    public static String set(String token, long maxAgeSeconds, boolean secure) {
        return NAME + "=" + token + "; Path=/; Max-Age=" + Math.max(0, maxAgeSeconds)
                + "; HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "");
    }

    public static String clear(boolean secure) {
        return NAME + "=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "");
    }

    /** In order, quotes removed. */
    public static List<String> values(List<String> cookieHeaders, String name) {
        List<String> values = new ArrayList<>();
        if (cookieHeaders == null) {
            return values;
        }
        for (String header : cookieHeaders) {
            if (header == null) {
                continue;
            }
            for (String pair : header.split(";")) {
                int eq = pair.indexOf('=');
                if (eq > 0 && pair.substring(0, eq).trim().equals(name)) {
                    String value = pair.substring(eq + 1).trim();
                    if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
                        value = value.substring(1, value.length() - 1);
                    }
                    values.add(value);
                }
            }
        }
        return values;
    }

    /** Null when nothing is left (the header is then dropped). */
    public static String without(String cookieHeader, String name) {
        if (cookieHeader == null) {
            return null;
        }
        StringBuilder kept = new StringBuilder(cookieHeader.length());
        for (String pair : cookieHeader.split(";")) {
            String trimmed = pair.trim();
            if (trimmed.isEmpty()) {
                continue;
            }
            int eq = trimmed.indexOf('=');
            String pairName = eq >= 0 ? trimmed.substring(0, eq).trim() : trimmed;
            if (pairName.equals(name)) {
                continue;
            }
            if (kept.length() > 0) {
                kept.append("; ");
            }
            kept.append(trimmed);
        }
        return kept.length() == 0 ? null : kept.toString();
    }
}
