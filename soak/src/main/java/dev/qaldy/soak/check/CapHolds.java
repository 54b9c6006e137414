package dev.qaldy.soak.check;

import dev.qaldy.soak.history.Facts;
import dev.qaldy.soak.history.History;
import dev.qaldy.soak.history.Kind;
import dev.qaldy.soak.history.Op;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * Seed: "apps still go to sleep at the cap with no API at all." Once the API said an account is
 * asleep (its billing view), and either the gate said so too (an app of the account "asleep") or
 * had the propagation time with the API and itself up to fetch the new signed state, no app of
 * the account is served through that gate, with or without the API, restarts included, until a
 * cap change is sent (it may wake the account) or the month ends.
 */
public final class CapHolds implements Invariant {

    @Override
    public String name() {
        return "Over the cap is never served";
    }

    @Override
    public String rule() {
        return "an account the API called asleep is never served once each gate could have learned it, with or without the API,"
                + " until its cap is changed";
    }

    @Override
    public Verdict check(History history, Bounds bounds) {
        Windows windows = new Windows(history, bounds);
        Access access = new Access(history, windows, bounds);
        long propagation = bounds.capPropagation().toMillis();
        List<Interval> apiAway = windows.apiMaybeFailing();
        int checks = 0;
        List<Violation> violations = new ArrayList<>();
        for (Op seen : history.ops()) {
            if ((seen.kind() != Kind.CAP && seen.kind() != Kind.BILLING) || !seen.ok() || !seen.fact(Facts.ASLEEP).equals("true")) {
                continue;
            }
            String account = seen.fact(Facts.ACCOUNT);
            if (pendingChange(history, access, account, seen)) {
                continue; // a cap change without an answer may still wake the account after this view
            }
            long until = Math.min(nextCapChange(history, account, seen), monthEnd(seen.end()));
            for (String gate : history.components().stream().filter(c -> c.startsWith("gate")).toList()) {
                List<Interval> away = new ArrayList<>(apiAway);
                away.addAll(windows.maybeAway(gate));
                long known = Math.min(learned(seen.end() + propagation, propagation, Interval.merged(away)),
                        saidAsleep(history, access, gate, account, seen.start()));
                for (Op r : history.ops()) {
                    if (r.kind() != Kind.OPEN || !r.gate().equals(gate) || !access.owner(r.app()).equals(account)
                            || r.start() < known || r.start() >= until) {
                        continue;
                    }
                    checks++;
                    if (r.status() == 200) {
                        violations.add(new Violation(r.start(), r.app() + " (account " + account + ") served via " + gate + " "
                                + (r.start() - seen.end()) / 1000 + " s after the API said the account is asleep (#" + seen.id()
                                + "), " + (r.start() - known) / 1000 + " s after " + gate + " could have learned it",
                                List.of(r.id(), seen.id())));
                    }
                }
            }
        }
        return new Verdict(name(), rule(), checks, violations);
    }

    /** When {@code gate} first answered an app of {@code account} "asleep" from {@code from} on, or never (max). */
    private static long saidAsleep(History history, Access access, String gate, String account, long from) {
        for (Op r : history.ops()) {
            if (r.kind() == Kind.OPEN && r.gate().equals(gate) && r.start() >= from && r.status() == 503
                    && r.message().startsWith("This app is asleep") && access.owner(r.app()).equals(account)) {
                return r.end();
            }
        }
        return Long.MAX_VALUE;
    }

    /** The first moment from {@code t} at which the last {@code propagation} ms had none of {@code away}. */
    static long learned(long t, long propagation, List<Interval> away) {
        boolean moved = true;
        while (moved) {
            moved = false;
            for (Interval i : away) {
                if (i.overlaps(t - propagation, t)) {
                    t = i.to() + propagation + 1;
                    moved = true;
                }
            }
        }
        return t;
    }

    private static boolean pendingChange(History history, Access access, String account, Op seen) {
        return history.ops().stream().anyMatch(c -> c.kind() == Kind.CAP && c.fact(Facts.ACCOUNT).equals(account) && c.unknown()
                && c.start() < seen.start() && access.horizon(c) > seen.start());
    }

    private static long nextCapChange(History history, String account, Op after) {
        long next = Long.MAX_VALUE;
        for (Op c : history.ops()) {
            if (c.kind() == Kind.CAP && c.fact(Facts.ACCOUNT).equals(account) && c.id() != after.id() && c.start() > after.start()
                    && !c.refused()) {
                next = Math.min(next, c.start());
            }
        }
        return next;
    }

    private static long monthEnd(long t) {
        YearMonth month = YearMonth.from(Instant.ofEpochMilli(t).atZone(ZoneOffset.UTC));
        return month.plusMonths(1).atDay(1).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
    }
}
