package dev.qaldy.runtime.data.entity;

import dev.qaldy.contract.data.DataBookmarks;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The data reads of one handler or job call (issue 18): the bookmark the request came with (its
 * floor: no answer older than it), the highest position an answer of the call reflected, and whether
 * one came from the replica (and as of when). One call, one thread.
 */
public final class DataSession {

    private final long floor;
    private long highest = -1;
    private Instant replicaAsOf;

    /** @param floor the request's bookmark, or -1 for none */
    public DataSession(long floor) {
        this.floor = floor;
    }

    /** For a request: its {@link DataBookmarks#HEADER} (names lower-case, as the handler's request has them). */
    public static DataSession of(Map<String, String> headers) {
        return new DataSession(DataBookmarks.parse(headers.get(DataBookmarks.HEADER.toLowerCase(java.util.Locale.ROOT))).orElse(-1));
    }

    /** No answer of this call may be older than this: the request's bookmark, or a newer one the call already saw. */
    public long floor() {
        return Math.max(floor, highest);
    }

    /** An answer reflected {@code bookmark} (-1: it said none). */
    public void saw(long bookmark) {
        highest = Math.max(highest, bookmark);
    }

    /** An answer came from the replica, which last heard from the feed at {@code asOf}. */
    public void sawReplica(long bookmark, Instant asOf) {
        saw(bookmark);
        replicaAsOf = replicaAsOf == null || asOf.isBefore(replicaAsOf) ? asOf : replicaAsOf;
    }

    /**
     * The response headers that say what the call's answers reflect: {@link DataBookmarks#HEADER} when an
     * answer had a bookmark, and {@link DataBookmarks#SOURCE}/{@link DataBookmarks#AS_OF} when one came from
     * the replica (the oldest contact of them). {name, value} pairs.
     */
    public List<String[]> headers() {
        List<String[]> out = new ArrayList<>();
        if (highest >= 0) {
            out.add(new String[] {DataBookmarks.HEADER, Long.toString(highest)});
        }
        if (replicaAsOf != null) {
            out.add(new String[] {DataBookmarks.SOURCE, DataBookmarks.REPLICA});
            out.add(new String[] {DataBookmarks.AS_OF, replicaAsOf.toString()});
        }
        return out;
    }
}
