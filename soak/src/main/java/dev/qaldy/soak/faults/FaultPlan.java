package dev.qaldy.soak.faults;

import dev.qaldy.soak.history.FaultKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The timeline of faults, from the seed alone: the same seed and components give the same rounds
 * (what, how, when from each round's start, how long), whatever the cell answers. Rounds are
 * planned until their estimated length (gap, faults, restarts, recovery probe) fills twice the
 * soak's minutes; the soak starts no round after its minutes have passed, so every machine runs a
 * prefix of the same timeline, as much of it as fits in the minutes (a 60-minute soak whose plan
 * merely filled the estimate ran out of rounds after 39 minutes on a quiet machine).
 *
 * <p>Each round is one fault (45 %), two at once on different components (30 %), or a restart of
 * a component (a gate, a runtime host, the second control plane, or the control plane during a
 * database outage) during an outage of the API (25 %). Faults last from 3 s to a fifth of the soak
 * (at least 20 s, at most 2 min); a restart is a stop and an immediate start. The API (control,
 * db) is faulted more often than the rest: it is what the seed is about. On a cell of many hosts
 * ({@code partitions}) a fault of a control plane, a gate or a runtime host may also be a cut
 * ({@link FaultKind#CUT}); the database is never cut (a control plane cut off from H2 waits on its
 * reads without bound: H2's client has no read timeout; PostgresCellIT cuts it on PostgreSQL). A cell
 * of one host draws from the other four kinds alone, so its timelines are those it always had.
 */
public final class FaultPlan {

    /** The kinds a fault of a cell of one host is drawn from, in the order of their draw. */
    static final List<FaultKind> ON_ONE_HOST = List.of(FaultKind.KILL, FaultKind.PAUSE, FaultKind.STOP, FaultKind.RESTART);
    /** How many times the soak's minutes the plan's estimated length fills. */
    static final int PLANNED_OVER = 2;
    /** A component's start as this machine takes it, for the estimate only (s). */
    static final int START_ESTIMATE_S = 40;
    /** The recovery probe's usual length (s), for the estimate only. */
    static final int PROBE_ESTIMATE_S = 25;

    private FaultPlan() {
    }

    /**
     * @param seed       the seed
     * @param minutes    how long the faults go on
     * @param components the components the cell has that may be faulted (never "status")
     */
    public static List<PlannedRound> of(long seed, Duration minutes, List<String> components) {
        return of(seed, minutes, components, false);
    }

    /**
     * @param seed       the seed
     * @param minutes    how long the faults go on
     * @param components the components the cell has that may be faulted (never "status")
     * @param partitions the cell is one of many hosts: links may be cut
     */
    public static List<PlannedRound> of(long seed, Duration minutes, List<String> components, boolean partitions) {
        Random random = new Random(seed);
        List<String> weighted = new ArrayList<>();
        for (String c : components) {
            int weight = switch (c) {
                case "control" -> 3;
                case "db", "gate" -> 2;
                default -> 1;
            };
            for (int i = 0; i < weight; i++) {
                weighted.add(c);
            }
        }
        long maxHold = Math.max(20, Math.min(120, minutes.toSeconds() / 5));
        List<PlannedRound> rounds = new ArrayList<>();
        long planned = 0;
        while (planned < PLANNED_OVER * minutes.toSeconds() || rounds.isEmpty()) {
            int number = rounds.size() + 1;
            Duration gap = Duration.ofSeconds(8 + random.nextInt(15));
            double shape = random.nextDouble();
            List<PlannedFault> faults = new ArrayList<>();
            String name;
            List<String> api = components.stream().filter(c -> c.equals("control") || c.equals("db")).toList();
            List<String> restartable = components.stream().filter(c -> !c.equals("db")).toList();
            if (shape < 0.25 && !api.isEmpty() && restartable.size() > 1) {
                name = "a restart during an outage";
                String first = api.get(random.nextInt(api.size()));
                FaultKind kind = List.of(FaultKind.KILL, FaultKind.PAUSE, FaultKind.STOP).get(random.nextInt(3));
                long hold = 15 + random.nextInt((int) Math.max(1, maxHold - 14));
                faults.add(new PlannedFault(first, kind, Duration.ZERO, Duration.ofSeconds(hold)));
                List<String> others = restartable.stream().filter(c -> !c.equals(first)).toList();
                String second = others.get(random.nextInt(others.size()));
                faults.add(new PlannedFault(second, FaultKind.RESTART, Duration.ofSeconds(2 + random.nextInt((int) Math.max(1, hold / 2))),
                        Duration.ZERO));
            } else if (shape < 0.55 && components.size() > 1) {
                name = "two at once";
                PlannedFault a = fault(random, weighted, Duration.ZERO, maxHold, partitions);
                String other;
                do {
                    other = weighted.get(random.nextInt(weighted.size()));
                } while (other.equals(a.component()));
                long after = 1 + random.nextInt((int) Math.max(1, Math.max(a.hold().toSeconds(), 2)));
                faults.add(a);
                faults.add(fault(random, List.of(other), Duration.ofSeconds(after), maxHold, partitions));
            } else {
                name = "one fault";
                faults.add(fault(random, weighted, Duration.ZERO, maxHold, partitions));
            }
            PlannedRound round = new PlannedRound(number, name, gap, faults);
            rounds.add(round);
            planned += gap.toSeconds() + round.length().toSeconds() + PROBE_ESTIMATE_S
                    + faults.stream().filter(f -> f.kind().restarts() && !f.component().equals("db")).count() * START_ESTIMATE_S;
        }
        return rounds;
    }

    private static PlannedFault fault(Random random, List<String> from, Duration after, long maxHold, boolean partitions) {
        String component = from.get(random.nextInt(from.size()));
        List<FaultKind> kinds = partitions && !component.equals("db") ? List.of(FaultKind.values()) : ON_ONE_HOST;
        FaultKind kind = kinds.get(random.nextInt(kinds.size()));
        Duration hold = kind == FaultKind.RESTART ? Duration.ZERO : Duration.ofSeconds(3 + random.nextInt((int) (maxHold - 2)));
        return new PlannedFault(component, kind, after, hold);
    }
}
