package dev.qaldy.soak.check;

import dev.qaldy.soak.history.History;
import java.util.List;

/** Every invariant of the soak, judged on one recorded history, in the report's order. */
public final class Checker {

    /** The invariants, the seed's first. */
    public static final List<Invariant> ALL = List.of(new NoAccessTheApiDenied(), new NoForbiddenWhileFailing(),
            new OpenedKeepsWorking(), new CapHolds(), new DeletedStaysDeleted(), new WebhooksRunOnce(), new SchedulesCatchUpOnce(),
            new ShieldHolds(), new ExistingAppsFound(), new HangCostsNoWait(), new NoServerErrors(), new Recovers());

    private Checker() {
    }

    /** Each invariant's verdict on {@code history}. */
    public static List<Verdict> check(History history, Bounds bounds) {
        return ALL.stream().map(i -> i.check(history, bounds)).toList();
    }
}
