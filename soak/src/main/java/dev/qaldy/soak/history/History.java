package dev.qaldy.soak.history;

import java.util.List;

/**
 * Everything a soak recorded, as the invariants read it: the requests and their answers, the
 * faults, the runs the API listed at the end and the recovery probes.
 *
 * @param seed       the seed of the fault timeline and the population's plans
 * @param started    epoch ms when the population started
 * @param ended      epoch ms when the last request ended (the history's end)
 * @param components the cell's components the soak could fault ("db", "control", …, "gate2")
 * @param partitions whether the cell was one of many hosts, so its plan could cut links ({@code FaultKind.CUT})
 */
public record History(long seed, long started, long ended, List<String> components, boolean partitions, List<Op> ops,
        List<Fault> faults, List<Run> runs, List<Recovery> recoveries) {

    public History {
        components = List.copyOf(components);
        ops = List.copyOf(ops);
        faults = List.copyOf(faults);
        runs = List.copyOf(runs);
        recoveries = List.copyOf(recoveries);
    }

    /** The request with this id, or null. */
    public Op op(long id) {
        for (Op op : ops) {
            if (op.id() == id) {
                return op;
            }
        }
        return null;
    }

    /** Whether the cell has this component (e.g. a second control plane that runs the scheduler too). */
    public boolean has(String component) {
        return components.contains(component);
    }
}
