package dev.qaldy.gate.routing;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Pattern;

/** What a path on the public origin is, decided on the raw request URI path. */
public enum PublicPath {
    /** Redirected to the console. */
    ROOT,
    /** The console's static files. */
    CONSOLE,
    HEALTH,
    /** For the metrics credential only. */
    METRICS,
    /** Proxied to the control plane. */
    API,
    /** In any letter case: never proxied from outside (404). */
    INTERNAL,
    /** {@code /hooks/<app>/<hook>} to the control plane. */
    HOOKS,
    NO_ROUTE,
    /** Dot segments, empty segments, encoded slashes, dots or backslashes, path parameters: 400. */
    BAD_PATH;

    /** RFC 3986 pchar and '/', minus ';': anything else is refused rather than forwarded ambiguously. */
    private static final Pattern SAFE = Pattern.compile("/[A-Za-z0-9\\-._~!$&'()*+,=:@/%]*");
    private static final Pattern TRICKS = Pattern.compile(
            "//|/\\./|/\\.\\./|/\\.$|/\\.\\.$|%2[fFeE]|%5[cC]|%00|%25");

    /** Decided on the decoded path ({@code /%61pi/v1/internal} is internal) once tricks are refused. */
    public static PublicPath of(String rawPath) {
        if (!canonical(rawPath)) {
            return BAD_PATH;
        }
        String path = decode(rawPath);
        if (path == null || !plain(path)) {
            return BAD_PATH;
        }
        if (path.equals("/")) {
            return ROOT;
        }
        if (under(path, "/console")) {
            return CONSOLE;
        }
        if (under(path, "/health")) {
            return HEALTH;
        }
        if (under(path, "/metrics")) {
            return METRICS;
        }
        if (under(path.toLowerCase(Locale.ROOT), "/api/v1/internal")) {
            return INTERNAL;
        }
        if (under(path, "/api")) {
            return API;
        }
        if (under(path, "/hooks")) {
            return HOOKS;
        }
        return NO_ROUTE;
    }

    static boolean canonical(String rawPath) {
        return rawPath != null && SAFE.matcher(rawPath).matches() && !TRICKS.matcher(rawPath).find();
    }

    static boolean plain(String path) {
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == ';' || c == '\\' || c < 0x20 || c == 0x7f) {
                return false;
            }
        }
        return true;
    }

    /** UTF-8; null when malformed. */
    static String decode(String rawPath) {
        if (rawPath.indexOf('%') < 0) {
            return rawPath;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(rawPath.length());
        for (int i = 0; i < rawPath.length(); i++) {
            char c = rawPath.charAt(i);
            if (c == '%') {
                if (i + 2 >= rawPath.length()) {
                    return null;
                }
                int hi = Character.digit(rawPath.charAt(i + 1), 16);
                int lo = Character.digit(rawPath.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    return null;
                }
                bytes.write(hi * 16 + lo);
                i += 2;
            } else {
                bytes.write(c);
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes.toByteArray())).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    /** The next character after {@code prefix} is '/' or none. */
    static boolean under(String path, String prefix) {
        return path.startsWith(prefix) && (path.length() == prefix.length() || path.charAt(prefix.length()) == '/');
    }
}
