package dev.qaldy.soak.check;

import dev.qaldy.soak.history.Facts;
import dev.qaldy.soak.history.History;
import dev.qaldy.soak.history.Kind;
import dev.qaldy.soak.history.Op;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Who the API let open what, from the history's changes and the API's answers to them, as a
 * Jepsen-style model: a change answered 2xx took effect somewhere between its sending and its
 * answer; a change without an answer (no answer, 5xx) may have taken effect, at most until the
 * outage it ran into was over plus the settle time (a hung process works off its queue when it
 * resumes); a change refused with a 4xx did nothing. The API answers a sharing change, a change
 * of kind, an app's deletion and a sign-out only once every gate was told (cell contract), so once
 * it answered, no gate may go on as before.
 */
final class Access {

    /** One change of whether a subject may open an app. */
    record Change(Op op, boolean allows, boolean certain) {
    }

    private static final String EVERYONE = "*";

    private final Windows windows;
    private final Bounds bounds;
    private final Map<String, List<Change>> changes = new HashMap<>();
    private final Map<String, String> owners = new HashMap<>();
    private final List<Op> signOuts = new ArrayList<>();

    Access(History history, Windows windows, Bounds bounds) {
        this.windows = windows;
        this.bounds = bounds;
        for (Op op : history.ops()) {
            switch (op.kind()) {
                case SHARE -> add(op.app(), op.fact(Facts.SUBJECT), op, true, op.ok() || apiSaid(op, 409));
                case REVOKE -> add(op.app(), op.fact(Facts.SUBJECT), op, false, op.ok() || apiSaid(op, 404));
                case CREATE_APP -> {
                    add(op.app(), op.fact(Facts.PERSON), op, true, op.ok());
                    if (op.fact(Facts.APP_KIND).equals("site")) {
                        add(op.app(), Facts.ANONYMOUS, op, true, op.ok());
                    }
                    if (op.ok()) {
                        owners.put(op.app(), op.fact(Facts.PERSON));
                    }
                }
                case DELETE_APP -> add(op.app(), EVERYONE, op, false, op.ok() || apiSaid(op, 404));
                case KIND -> add(op.app(), Facts.ANONYMOUS, op, op.fact(Facts.APP_KIND).equals("site"), op.ok());
                case SIGN_OUT -> signOuts.add(op);
                default -> {
                }
            }
        }
    }

    /**
     * Whether the API itself answered {@code status} (its problem JSON): "already shared", "not
     * shared", "no such app" say how things stand. The same status as a server's bare page (a
     * control plane whose application is not deployed yet answers 404 to every path) says nothing.
     */
    static boolean apiSaid(Op op, int status) {
        return op.status() == status && op.fact(Facts.PROBLEM).equals("yes");
    }

    private void add(String app, String subject, Op op, boolean allows, boolean certain) {
        if (!certain && !op.unknown()) {
            return; // refused (by the API, the shield, or a server whose application is not up): nothing changed
        }
        changes.computeIfAbsent(app + "\n" + subject, k -> new ArrayList<>()).add(new Change(op, allows, certain));
    }

    /** The owner (email) of an app as the API last created it, or "". */
    String owner(String app) {
        return owners.getOrDefault(app, "");
    }

    /**
     * Whether the API may have let {@code subject} open {@code app} at some moment while {@code r}
     * was in flight: some allowing change sent before {@code r} ended that no denying change is
     * certain to have followed before {@code r} was sent.
     */
    boolean mayBeAllowed(String app, String subject, Op r) {
        List<Change> mine = changes.getOrDefault(app + "\n" + subject, List.of());
        List<Change> denials = new ArrayList<>(changes.getOrDefault(app + "\n" + EVERYONE, List.of()));
        mine.stream().filter(c -> !c.allows()).forEach(denials::add);
        for (Change allow : mine) {
            if (!allow.allows() || allow.op().start() >= r.end()) {
                continue;
            }
            long latest = latestEffect(allow);
            boolean followed = denials.stream().anyMatch(d -> d.certain() && d.op().start() > latest && d.op().end() < r.start());
            if (!followed) {
                return true;
            }
        }
        return false;
    }

    /** The change that most recently denied {@code subject} {@code app} for certain before {@code r}, or null. */
    Op lastDenial(String app, String subject, Op r) {
        Op last = null;
        List<Change> all = new ArrayList<>(changes.getOrDefault(app + "\n" + subject, List.of()));
        all.addAll(changes.getOrDefault(app + "\n" + EVERYONE, List.of()));
        for (Change c : all) {
            if (!c.allows() && c.certain() && c.op().end() < r.start() && (last == null || c.op().end() > last.end())) {
                last = c.op();
            }
        }
        return last;
    }

    /** The latest moment a change may have taken effect. */
    long latestEffect(Change c) {
        return c.certain() ? c.op().end() : horizon(c.op());
    }

    /**
     * The latest moment a change without an answer may take effect: once the outage it ran into
     * (of the API, or of the gate it went through) is over, plus the settle time.
     */
    long horizon(Op op) {
        long latest = op.end();
        List<Interval> away = new ArrayList<>(windows.apiMaybeFailing());
        away.addAll(windows.maybeAway(op.gate()));
        for (Interval i : away) {
            if (i.overlaps(op.start(), op.end())) {
                latest = Math.max(latest, i.to());
            }
        }
        return latest + bounds.settle().toMillis();
    }

    /**
     * The sign-out that certainly ended {@code session} for {@code r}'s gate before {@code r} was
     * sent, or null: one the API answered ({@code X-Qaldy-Signed-Out: everywhere}) holds on every
     * gate; one made on a gate that could not tell the API ({@code this-gate}) holds on that gate
     * until it restarts.
     */
    Op signedOut(String session, Op r) {
        if (session.isEmpty()) {
            return null;
        }
        for (Op s : signOuts) {
            if (!s.fact(Facts.SESSION).equals(session) || s.end() >= r.start()) {
                continue;
            }
            String where = s.header("x-qaldy-signed-out");
            if (where.equals("everywhere")) {
                return s;
            }
            if (where.equals("this-gate") && s.gate().equals(r.gate())
                    && !Interval.anyOverlaps(windows.maybeRestarted(s.gate()), s.end(), r.start())) {
                return s;
            }
        }
        return null;
    }

    /** Whether a sign-out of {@code session} (answered or not) was sent before {@code t}. */
    boolean signOutSentBefore(String session, long t) {
        return !session.isEmpty() && signOuts.stream().anyMatch(s -> s.fact(Facts.SESSION).equals(session) && s.start() < t);
    }

    /** Whether {@code op} carries a session made for its own app. */
    static boolean sessionFor(Op op) {
        return !op.fact(Facts.SESSION).isEmpty() && op.fact(Facts.SESSION_APP).equals(op.app());
    }

    /** Whether the gate's shield refused it, as its page says ("Blocked by …shield", "Too many requests", "…daily limit"). */
    static boolean byShield(Op op) {
        String m = op.message();
        return m.contains("shield") || m.contains("daily limit") || m.startsWith("Too many requests");
    }

    /** Whether the gate refused access to the app, as its page says ("You don't have access to this app"). */
    static boolean accessRefused(Op op) {
        return op.status() == 403 && op.message().contains("have access");
    }

    static boolean isOpen(Op op) {
        return op.kind() == Kind.OPEN;
    }
}
