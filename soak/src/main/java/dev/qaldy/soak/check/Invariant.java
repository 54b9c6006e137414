package dev.qaldy.soak.check;

import dev.qaldy.soak.history.History;

/** One promise of the seed (or of issue 14), judged on a whole recorded history: a pure function. */
public interface Invariant {

    /** Its name, as the report and stderr say it ("No access the API denied"). */
    String name();

    /** What it promises, in a sentence. */
    String rule();

    /** Judges every answer it concerns. */
    Verdict check(History history, Bounds bounds);
}
