package dev.qaldy.runtime.sites.control;

import java.util.Locale;

/**
 * RFC 9110 range requests for a static file of known size: one range ({@code bytes=a-b},
 * {@code bytes=a-}, {@code bytes=-n}) is a part (206); one that starts past the end, or an empty
 * suffix, is unsatisfiable (416); anything else — no header, another unit, several ranges, a
 * malformed value — is the whole file (200), which the RFC allows a server to answer.
 */
public final class ByteRanges {

    private ByteRanges() {
    }

    /** What to send. */
    public sealed interface Range {
    }

    /** The whole file, 200. */
    public record Whole() implements Range {
    }

    /** Bytes {@code first} to {@code last}, both included, 206. */
    public record Part(long first, long last) implements Range {

        public long length() {
            return last - first + 1;
        }

        /** The {@code Content-Range} value for a file of {@code size} bytes. */
        public String contentRange(long size) {
            return "bytes " + first + "-" + last + "/" + size;
        }
    }

    /** 416, with {@code Content-Range: bytes *}{@code /size}. */
    public record Unsatisfiable() implements Range {

        public String contentRange(long size) {
            return "bytes */" + size;
        }
    }

    static final Whole WHOLE = new Whole();

    /**
     * @param header the request's {@code Range} header, or null
     * @param size   the file's size in bytes
     */
    public static Range of(String header, long size) {
        if (header == null) {
            return WHOLE;
        }
        String value = header.strip();
        if (!value.toLowerCase(Locale.ROOT).startsWith("bytes=")) {
            return WHOLE;
        }
        String spec = value.substring("bytes=".length()).strip();
        int dash = spec.indexOf('-');
        if (spec.indexOf(',') >= 0 || dash < 0) {
            return WHOLE;
        }
        String from = spec.substring(0, dash).strip();
        String to = spec.substring(dash + 1).strip();
        if (!digits(from) || !digits(to) || from.isEmpty() && to.isEmpty()) {
            return WHOLE;
        }
        if (from.isEmpty()) {
            long suffix = number(to);
            if (suffix == 0 || size == 0) {
                return new Unsatisfiable();
            }
            return new Part(Math.max(0, size - suffix), size - 1);
        }
        long first = number(from);
        long last = to.isEmpty() ? Long.MAX_VALUE : number(to);
        if (last < first) {
            return WHOLE;
        }
        if (first >= size) {
            return new Unsatisfiable();
        }
        return new Part(first, Math.min(last, size - 1));
    }

    private static boolean digits(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) < '0' || text.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /** A run of digits; past {@code Long.MAX_VALUE} is as good as infinite here. */
    private static long number(String digits) {
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }
}
