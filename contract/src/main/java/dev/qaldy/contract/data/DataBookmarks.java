package dev.qaldy.contract.data;

import java.util.OptionalLong;

/**
 * Bookmarks of an app's data (issue 18; Cloudflare D1's Sessions API has them too): every answer of
 * the data API carries the feed position it reflects in {@value #HEADER}; a request that sends one
 * back is never answered from a replica older than it (read your writes, monotonic reads). An
 * answer from a runtime host's replica says so in {@value #SOURCE} ({@value #REPLICA}) and
 * {@value #AS_OF} (ISO-8601: when the replica last heard from the feed).
 */
public final class DataBookmarks {

    /** The feed position (a whole number ≥ 0) an answer reflects, or a request wants at least. */
    public static final String HEADER = "X-Qaldy-Data-Bookmark";
    /** {@value #PRIMARY} or {@value #REPLICA}. */
    public static final String SOURCE = "X-Qaldy-Data";
    public static final String PRIMARY = "primary";
    public static final String REPLICA = "replica";
    /** When the replica that answered last heard from the feed (ISO-8601). */
    public static final String AS_OF = "X-Qaldy-Data-As-Of";

    private static final int MAX_DIGITS = 18;

    private DataBookmarks() {
    }

    /** A header's bookmark; empty for none or for anything but a whole number of at most 18 digits (ignored, as none). */
    public static OptionalLong parse(String header) {
        if (header == null) {
            return OptionalLong.empty();
        }
        String value = header.trim();
        if (value.isEmpty() || value.length() > MAX_DIGITS || !value.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(Long.parseLong(value));
    }
}
