package dev.qaldy.soak.faults;

import dev.qaldy.soak.Soak;
import dev.qaldy.drill.cell.CellControl;
import dev.qaldy.drill.cell.DrillError;
import dev.qaldy.soak.history.Fault;
import dev.qaldy.soak.history.FaultKind;
import dev.qaldy.soak.history.Recorder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;

/**
 * Makes the faults of a round for real, with {@code bin/qaldy stop|start}, signals and (on a cell of
 * many hosts) {@code bin/qaldy partition|heal}, records
 * each one's times, and keeps track of what it took away, so that {@link #restoreAll} can bring
 * everything back (SIGCONT what it SIGSTOPped, heal what it cut, start what it stopped) when the soak ends, fails or
 * is interrupted. Each fault's commands run in order in threads of their own; the shutdown hook
 * waits for the running ones.
 */
public final class FaultInjector {

    /** How long a component may take to become ready after its start command left it waiting (its database). */
    static final Duration READY_WAIT = Duration.ofMinutes(3);

    /** A fault being made. */
    private static final class Ongoing {
        final int round;
        final PlannedFault planned;
        volatile long start;
        volatile long down;
        volatile long up = -1;
        volatile long ready = -1;
        volatile boolean waitsForReady;
        /** The links a cut took away, for its heal. */
        volatile List<String[]> cut = List.of();
        boolean recorded;
        final CountDownLatch taken = new CountDownLatch(1);
        final StringBuilder note = new StringBuilder();

        Ongoing(int round, PlannedFault planned) {
            this.round = round;
            this.planned = planned;
        }

        synchronized void note(String s) {
            note.append(note.length() == 0 ? "" : "; ").append(s);
        }

        Fault fault() {
            return new Fault(round, planned.component(), planned.kind(), start, down, up < 0 ? down : up, ready, note.toString());
        }
    }

    private final CellControl cell;
    private final Recorder recorder;
    private final Readiness readiness;
    private final String server;
    private final Map<String, Ongoing> away = new java.util.concurrent.ConcurrentHashMap<>();
    private final List<Thread> running = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile boolean stopping;

    /**
     * @param server "payara" or "liberty" to start components on (bin/qaldy start --server), null
     *               to start each on the server it last ran on
     */
    public FaultInjector(CellControl cell, Recorder recorder, Readiness readiness, String server) {
        this.cell = cell;
        this.recorder = recorder;
        this.readiness = readiness;
        this.server = server;
    }

    /**
     * Makes a round's faults at their planned times from now, each command in a thread of its own
     * (a start that takes minutes delays no other fault's time), brings each back after its hold
     * (never before it was taken away), waits for any component its start left waiting, and
     * records them.
     *
     * @return when the round's last fault was back (epoch ms)
     */
    public long run(PlannedRound round, Consumer<String> say) {
        long t0 = Soak.CLOCK.millis();
        List<Ongoing> all = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (PlannedFault f : round.faults()) {
            Ongoing o = new Ongoing(round.number(), f);
            all.add(o);
            threads.add(command("take", () -> {
                sleepUntil(t0 + f.after().toMillis());
                if (!stopping) {
                    say.accept("round " + round.number() + ": " + f.line());
                    take(o);
                }
                o.taken.countDown();
            }));
            if (f.kind() != FaultKind.RESTART) {
                threads.add(command("bring", () -> {
                    await(o.taken);
                    sleepUntil(Math.max(t0 + f.back().toMillis(), o.down + f.hold().toMillis()));
                    if (!stopping && o.start > 0) {
                        bring(o);
                    }
                }));
            }
        }
        threads.forEach(FaultInjector::join);
        running.removeAll(threads);
        long healed = 0;
        for (Ongoing o : all) {
            if (o.start == 0) {
                continue; // never made: the soak was stopped first
            }
            if (o.waitsForReady && !stopping) {
                awaitReady(o);
            }
            if (o.ready < 0 && o.note.length() == 0) {
                o.note("not back when the soak ended");
            }
            healed = Math.max(healed, o.ready < 0 ? Soak.CLOCK.millis() : o.ready);
            record(o);
        }
        return healed;
    }

    private synchronized void record(Ongoing o) {
        if (!o.recorded) {
            o.recorded = true;
            recorder.fault(o.fault());
        }
    }

    private Thread command(String what, Runnable r) {
        Thread t = new Thread(r, "soak-fault-" + what);
        t.setDaemon(true);
        t.start();
        running.add(t);
        return t;
    }

    private static void join(Thread t) {
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void take(Ongoing o) {
        String c = o.planned.component();
        o.start = Soak.CLOCK.millis();
        switch (o.planned.kind()) {
            case KILL -> exit(o, "stop", cell.run("stop", c, "--kill"));
            case STOP, RESTART -> exit(o, "stop", cell.run("stop", c));
            case PAUSE -> {
                if (!cell.signal(c, "STOP")) {
                    o.note("SIGSTOP found no process");
                }
            }
            case CUT -> {
                try {
                    o.cut = cell.cut(c);
                } catch (DrillError e) {
                    o.note("the cut failed: " + e.getMessage());
                }
            }
        }
        o.down = Soak.CLOCK.millis();
        away.put(c, o);
        if (o.planned.kind() == FaultKind.RESTART) {
            bring(o);
        }
    }

    private void bring(Ongoing o) {
        String c = o.planned.component();
        o.up = Soak.CLOCK.millis();
        if (o.planned.kind() == FaultKind.PAUSE) {
            if (!cell.signal(c, "CONT")) {
                o.note("SIGCONT found no process");
            }
            o.ready = Soak.CLOCK.millis();
            away.remove(c);
            return;
        }
        if (o.planned.kind() == FaultKind.CUT) {
            try {
                cell.heal(o.cut);
            } catch (DrillError e) {
                o.note("the heal failed: " + e.getMessage());
            }
            o.ready = Soak.CLOCK.millis();
            away.remove(c);
            return;
        }
        int exit = cell.run(startArgs(c));
        if (exit != 0 && exit != 3) {
            o.note("start exited " + exit + ", started again");
            exit = cell.run(startArgs(c));
        }
        if (exit == 0) {
            o.ready = Soak.CLOCK.millis();
        } else if (exit == 3) {
            o.note("start exited 3: it waits for its database");
            o.waitsForReady = true;
        } else {
            o.note("start exited " + exit + " again");
            o.waitsForReady = true;
        }
        away.remove(c);
    }

    private void awaitReady(Ongoing o) {
        long deadline = Soak.CLOCK.millis() + READY_WAIT.toMillis();
        while (Soak.CLOCK.millis() < deadline && !stopping) {
            if (readiness.ready(o.planned.component())) {
                o.ready = Soak.CLOCK.millis();
                return;
            }
            pause(1000);
        }
        o.note("not ready " + READY_WAIT.toSeconds() + " s after its start");
    }

    private String[] startArgs(String component) {
        return server == null ? new String[] {"start", component} : new String[] {"start", component, "--server", server};
    }

    private void exit(Ongoing o, String what, int exit) {
        if (exit != 0) {
            o.note(what + " exited " + exit);
        }
    }

    /**
     * Brings back everything still away (SIGCONT, or {@code bin/qaldy start}), and makes no more
     * faults. Safe to call twice and from a shutdown hook: it first waits for the commands being run.
     */
    public synchronized void restoreAll(Consumer<String> say) {
        stopping = true;
        running.forEach(FaultInjector::join);
        for (Ongoing o : new ArrayList<>(away.values())) {
            say.accept("bringing back " + o.planned.component() + " (" + o.planned.kind().said + ")");
            bring(o);
            record(o);
        }
    }

    private void sleepUntil(long t) {
        while (!stopping && Soak.CLOCK.millis() < t) {
            pause(Math.min(500, Math.max(1, t - Soak.CLOCK.millis())));
        }
    }

    static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
