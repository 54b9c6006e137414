package dev.qaldy.soak.check;

import java.util.List;

/**
 * One answer (or one run, or one recovery) that broke an invariant.
 *
 * @param at      epoch ms it happened (the request's start)
 * @param said    what was wrong, in a sentence a person can check
 * @param opIds   the requests it rests on, the offending one first
 */
public record Violation(long at, String said, List<Long> opIds) {

    public Violation {
        opIds = List.copyOf(opIds);
    }
}
