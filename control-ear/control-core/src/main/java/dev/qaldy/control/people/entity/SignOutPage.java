package dev.qaldy.control.people.entity;

import java.util.List;

/**
 * One page of the unexpired sign-out marks, in feed order, for a starting gate.
 *
 * @param marks the marks (token id and token expiry)
 * @param next  the cursor to ask after for the next page: the last mark's position, else the one asked after
 * @param more  true when the page was full, so more may follow
 */
public record SignOutPage(List<SessionSignedOut> marks, long next, boolean more) {

    /** Most marks in one page. */
    public static final int MAX = 1000;
    /** Marks in one page when the caller names no limit. */
    public static final int DEFAULT = 500;

    public SignOutPage {
        marks = List.copyOf(marks);
    }

    /** The page of {@code rows} (at most {@code limit}, read after position {@code after}). */
    public static SignOutPage of(List<SignedOutSession> rows, long after, int limit) {
        List<SessionSignedOut> marks = rows.stream().limit(limit).map(SignedOutSession::mark).toList();
        long next = rows.isEmpty() ? after : rows.get(Math.min(rows.size(), limit) - 1).id();
        return new SignOutPage(marks, next, rows.size() >= limit);
    }

    /** A limit asked for, clamped to 1..{@value #MAX}; null: {@value #DEFAULT}. */
    public static int limit(Integer asked) {
        return asked == null ? DEFAULT : Math.max(1, Math.min(MAX, asked));
    }
}
