package dev.qaldy.drill.cell;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The running cell the drill works on, as {@code bin/qaldy drill} described it through system
 * properties ({@code qaldy.drill.root}, {@code qaldy.drill.var}, {@code qaldy.drill.gate-port},
 * {@code qaldy.drill.control-port}):
 * its folders, its public hosts, and {@code bin/qaldy stop|start} of one component with the same
 * environment (ports, options), so a component comes back as it was.
 */
public final class CellControl {

    private static final long COMMAND_TIMEOUT_MIN = 10;

    private final Path root;
    private final Path var;
    private final int gatePort;
    private final int controlPort;
    private final Path log;

    /**
     * @param root     the repository (where bin/qaldy is)
     * @param var      the cell's state folder
     * @param gatePort    the gate's public port
     * @param controlPort the control plane's port (for the one internal call: a usage report)
     * @param log         where bin/qaldy's output goes (appended)
     */
    public CellControl(Path root, Path var, int gatePort, int controlPort, Path log) {
        this.root = root;
        this.var = var;
        this.gatePort = gatePort;
        this.controlPort = controlPort;
        this.log = log;
    }

    /** Reads the cell from the system properties bin/qaldy drill sets; {@link DrillError} when one is missing. */
    public static CellControl fromSystemProperties(Path log) {
        return fromSystemProperties("qaldy.drill", log);
    }

    /**
     * Reads the cell from the system properties {@code <prefix>.root}, {@code .var}, {@code .gate-port}
     * and {@code .control-port} that a bin/qaldy command (drill: "qaldy.drill", soak: "qaldy.soak")
     * sets; {@link DrillError} when one is missing.
     */
    public static CellControl fromSystemProperties(String prefix, Path log) {
        return new CellControl(Path.of(required(prefix, "root")), Path.of(required(prefix, "var")),
                Integer.parseInt(required(prefix, "gate-port")), Integer.parseInt(required(prefix, "control-port")), log);
    }

    private static String required(String prefix, String key) {
        String name = prefix + "." + key;
        String value = System.getProperty(name);
        if (value == null || value.isBlank()) {
            throw new DrillError("missing -D" + name + "; run it with bin/qaldy " + prefix.substring(prefix.lastIndexOf('.') + 1));
        }
        return value;
    }

    /** Runs {@code bin/qaldy args…}; {@link DrillError} when it exits non-zero or takes over 10 minutes. */
    public void qaldy(String... args) {
        int exit = run(args);
        if (exit != 0) {
            throw new DrillError("bin/qaldy " + String.join(" ", args) + " exited " + exit + "; see " + log);
        }
    }

    /**
     * Runs {@code bin/qaldy args…} and returns its exit code (e.g. 3: {@code start control} left it
     * waiting for its database); {@link DrillError} only when it cannot run or takes over 10 minutes.
     */
    public int run(String... args) {
        List<String> command = new ArrayList<>();
        command.add(root.resolve("bin/qaldy").toString());
        command.addAll(List.of(args));
        try {
            Files.createDirectories(log.getParent());
            Files.writeString(log, "$ bin/qaldy " + String.join(" ", args) + "\n",
                    java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
            Process process = new ProcessBuilder(command).directory(root.toFile()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            if (!process.waitFor(COMMAND_TIMEOUT_MIN, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new DrillError("bin/qaldy " + String.join(" ", args) + " did not finish in " + COMMAND_TIMEOUT_MIN + " min");
            }
            return process.exitValue();
        } catch (IOException e) {
            throw new DrillError("could not run bin/qaldy " + String.join(" ", args) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DrillError("interrupted", e);
        }
    }

    /** The pid of a running component, from {@code var/run/<component>.pid}; -1 when it has none. */
    public long pid(String component) {
        try {
            return Long.parseLong(Files.readString(var.resolve("run/" + component + ".pid")).trim());
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    /**
     * Sends {@code signal} ("STOP", "CONT", "KILL") to a component's processes with {@code bin/qaldy
     * signal}: a JVM, or PostgreSQL's postmaster with every backend (each leads a session of its own),
     * so a SIGSTOP hangs the database's open sessions too. False when it has no pid or the signal
     * could not be sent (the process is gone).
     */
    public boolean signal(String component, String signal) {
        return pid(component) > 0 && run("signal", component, signal) == 0;
    }

    /** The control planes a cell may run; the cut pass cuts each one running off from the edge. */
    static final List<String> CONTROL_PLANES = List.of("control", "control2");
    /**
     * The components the cut pass cuts the control planes off from, in that order: the runtime hosts
     * first, so a gate's witness lost the API no later than the gate itself did (a gate whose runtime
     * host still heard the API after the gate's own outage began takes itself for cut off alone).
     */
    static final List<String> EDGE = List.of("runtime", "runtime2", "status", "gate2", "gate");

    /**
     * Cuts every running control plane off from every running edge component ({@code bin/qaldy
     * partition}), the database link left up: the API serves, but nothing at the edge can reach it.
     *
     * @return the pairs cut, each "control gate", for {@link #heal(List)}
     * @throws DrillError the cell is not one of many hosts (bin/qaldy up --hosts), or a cut failed
     */
    public List<String[]> cutOffControlPlanes() {
        List<String[]> pairs = new ArrayList<>();
        for (String edge : EDGE) {
            for (String control : CONTROL_PLANES) {
                if (pid(edge) > 0 && pid(control) > 0) {
                    pairs.add(new String[] {control, edge});
                }
            }
        }
        return cut(pairs);
    }

    /**
     * Cuts one component off ({@code bin/qaldy partition}): a control plane from every running edge
     * component (runtime hosts first, as {@link #cutOffControlPlanes()}), or an edge component from
     * every running control plane.
     *
     * @return the pairs cut, for {@link #heal(List)}
     * @throws DrillError not a cell of many hosts, a component that cannot be cut (the database, the
     *                    status page), or a cut that failed (those made before it are healed)
     */
    public List<String[]> cut(String component) {
        List<String[]> pairs = new ArrayList<>();
        if (CONTROL_PLANES.contains(component)) {
            EDGE.stream().filter(edge -> pid(edge) > 0).forEach(edge -> pairs.add(new String[] {component, edge}));
        } else if (EDGE.contains(component) && !component.equals("status")) {
            CONTROL_PLANES.stream().filter(control -> pid(control) > 0).forEach(control -> pairs.add(new String[] {control, component}));
        } else {
            throw new DrillError("cannot cut " + component + " off: only a control plane, a gate or a runtime host");
        }
        return cut(pairs);
    }

    private List<String[]> cut(List<String[]> pairs) {
        if (!manyHosts()) {
            throw new DrillError("cutting links needs a cell of many hosts: bin/qaldy down, then bin/qaldy up --hosts");
        }
        if (pairs.isEmpty()) {
            throw new DrillError("nothing to cut: no control plane and edge component are running");
        }
        List<String[]> cut = new ArrayList<>();
        try {
            for (String[] pair : pairs) {
                qaldy("partition", pair[0], pair[1]);
                cut.add(pair);
            }
        } catch (DrillError e) {
            heal(cut);
            throw e;
        }
        return cut;
    }

    /** Whether this cell is one of many hosts ({@code bin/qaldy up --hosts}), whose links can be cut. */
    public boolean manyHosts() {
        return Files.exists(var.resolve("hosts.net"));
    }

    /** Heals the links {@link #cutOffControlPlanes()} cut ({@code bin/qaldy heal}), every one even when one fails. */
    public void heal(List<String[]> cut) {
        DrillError failed = null;
        for (String[] pair : cut) {
            try {
                qaldy("heal", pair[0], pair[1]);
            } catch (DrillError e) {
                failed = e;
            }
        }
        if (failed != null) {
            throw failed;
        }
    }

    /** The gate's credential for the control plane (var/keys/gate-to-control), for the one internal call the drill makes as a gate. */
    public String serviceToken() {
        try {
            return Files.readString(var.resolve("keys/gate-to-control")).trim();
        } catch (IOException e) {
            throw new DrillError("no gate-to-control credential in " + var.resolve("keys") + ": " + e.getMessage(), e);
        }
    }

    public Path root() {
        return root;
    }

    public Path var() {
        return var;
    }

    public int gatePort() {
        return gatePort;
    }

    public int controlPort() {
        return controlPort;
    }

    /** The console's and API's origin host, as people see it ("localhost:8080"). */
    public String publicHost() {
        return "localhost:" + gatePort;
    }

    /** An app's own origin's host ("guestbook.localhost:8080"). */
    public String appHost(String app) {
        return app + ".localhost:" + gatePort;
    }
}
