package dev.qaldy.soak.check;

import dev.qaldy.soak.history.Facts;
import dev.qaldy.soak.history.History;
import dev.qaldy.soak.history.Kind;
import dev.qaldy.soak.history.Op;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which requests made while the API certainly failed must be served from the gate's copy (seed:
 * "Apps people already opened keep working", "Pages already served still load"), and what they
 * rest on: the last 200 the same gate gave the same session (or, for a public site, the same page
 * without one) while the API answered. The seed allows nothing else only when nothing else
 * explains a refusal, so a request is expected to be served only when all of these hold:
 * <ul>
 *   <li>the copy is within the access memory, counted from the API's answer (at most the
 *       freshness window before that 200);</li>
 *   <li>no change of the app's sharing or kind, no build or promotion, and no sign-out of the
 *       session was sent since (each may clear the copy or change the code);</li>
 *   <li>the gate was up all along, and the API answered for the in-touch time before it failed
 *       (a gate trusts its copies only when in touch with the sharing changes);</li>
 *   <li>the runtime host was up while it was asked;</li>
 *   <li>the app's account never had a cap change or usage report, and the app no shield settings
 *       (its own refusals are judged elsewhere).</li>
 * </ul>
 */
final class CopyExpectation {

    private final History history;
    private final Bounds bounds;
    private final List<Interval> failing;
    private final List<Interval> maybeFailing;
    private final List<Interval> runtimeAway;
    private final Access access;
    private final Set<String> cappedAccounts = new HashSet<>();
    private final Set<String> shieldedApps = new HashSet<>();
    private final Windows windows;

    CopyExpectation(History history, Bounds bounds) {
        this.history = history;
        this.bounds = bounds;
        this.windows = new Windows(history, bounds);
        this.failing = windows.apiCertainlyFailing();
        this.maybeFailing = windows.apiMaybeFailing();
        this.runtimeAway = windows.maybeAway("runtime");
        this.access = new Access(history, windows, bounds);
        for (Op op : history.ops()) {
            if (op.kind() == Kind.CAP || op.kind() == Kind.USAGE) {
                cappedAccounts.add(op.fact(Facts.ACCOUNT));
            }
            if (op.kind() == Kind.SHIELD) {
                shieldedApps.add(op.app());
            }
        }
    }

    /** The failure window {@code r} lies wholly in, or null. */
    Interval failure(Op r) {
        Interval w = Interval.at(failing, r.start());
        return w != null && w.covers(r.start(), r.end()) ? w : null;
    }

    /** The 200 {@code r} rests on when it must be served from the copy, or null when the seed does not promise it. */
    Op basis(Op r) {
        Interval w = failure(r);
        if (w == null || !Access.isOpen(r) || !r.fact(Facts.BOT).isEmpty() || r.status() == 429) {
            return null;
        }
        boolean withSession = Access.sessionFor(r);
        if (!withSession && !r.fact(Facts.SESSION).isEmpty()) {
            return null;
        }
        Op basis = null;
        for (Op b : history.ops()) {
            if (b.kind() == Kind.OPEN && b.status() == 200 && b.end() < w.from() && b.gate().equals(r.gate()) && b.app().equals(r.app())
                    && b.fact(Facts.SESSION).equals(r.fact(Facts.SESSION)) && (withSession || b.fact(Facts.PATH).equals(r.fact(Facts.PATH)))
                    && !Interval.anyOverlaps(maybeFailing, b.start(), b.end()) && (basis == null || b.start() > basis.start())) {
                basis = b;
            }
        }
        if (basis == null || !promised(r, w, basis)) {
            return null;
        }
        return basis;
    }

    private boolean promised(Op r, Interval w, Op b) {
        long asked = b.start() - bounds.accessFreshness().toMillis();
        if (r.end() >= asked + bounds.accessMemory().toMillis()) {
            return false;
        }
        for (Op c : history.ops()) {
            if (!c.app().equals(r.app()) || c.refused() || c.start() > r.end()) {
                continue;
            }
            long effect = c.ok() ? c.end() : access.horizon(c); // the 200 at b already shows what took effect before it
            boolean sharing = c.kind().changesSharing() && effect >= b.start();
            boolean code = (c.kind() == Kind.BUILD || c.kind() == Kind.PROMOTE) && effect >= b.start() - bounds.settle().toMillis();
            if (sharing || code) {
                return false;
            }
        }
        if (access.signOutSentBefore(r.fact(Facts.SESSION), r.end())) {
            return false;
        }
        long touch = bounds.inTouch().toMillis();
        Interval around = Interval.at(maybeFailing, w.from());
        long began = around == null ? w.from() : around.from(); // the API may have failed from here on
        if (began < w.from() - touch // a long stretch in which it may have failed already (another fault's tail)
                || Interval.anyOverlaps(maybeFailing, began - touch, began - 1) // not in touch when it began
                || Interval.anyOverlaps(windows.maybeAway(r.gate()), Math.min(asked, began) - touch, r.end())
                || Interval.anyOverlaps(runtimeAway, r.start(), r.end())) {
            return false;
        }
        return !cappedAccounts.contains(access.owner(r.app())) && !shieldedApps.contains(r.app());
    }
}
