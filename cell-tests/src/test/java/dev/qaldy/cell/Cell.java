package dev.qaldy.cell;

import dev.qaldy.contract.data.DataGrants;
import dev.qaldy.contract.keys.ServiceCredential;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A whole cell started by {@code bin/qaldy} on free ports and a {@code var/} of its own under
 * {@code cell-tests/target/}, so tests run beside a developer's own cell. {@link #close()} stops
 * every process it started, by pid, even when a test failed.
 */
public final class Cell implements AutoCloseable {

    /** Cells' ports are drawn from here up to the ephemeral range (see {@link #freePort()}). */
    private static final int LOWEST_PORT = 10_000;
    private static final Random PORTS = new SecureRandom();

    static final List<String> COMPONENTS = List.of("db", "control", "runtime", "gate", "status");
    /** The JVM flag every component of a test cell gets (bin/qaldy already gives it to all but the gate). */
    static final String C1_ONLY = "-XX:TieredStopAtLevel=1";
    /** bin/qaldy's switch for a cell without its status page; cells are started without it by default. */
    static final String NO_STATUS = "QALDY_NO_STATUS";
    /** The value of {@link #NO_STATUS} in a test's environment that keeps the status page in its cell. */
    static final String WITH_STATUS_PAGE = "0";
    /** What names a gate's internal listener's port beside its own: "gate-internal" ({@code QALDY_PORT_GATE_INTERNAL}). */
    static final String INTERNAL = "-internal";
    /** What names a component's Admin Center port on Open Liberty: "gate-admin" ({@code QALDY_PORT_GATE_ADMIN}). */
    static final String ADMIN = "-admin";

    private final List<String> components = new ArrayList<>(COMPONENTS);
    private final Path root;
    private final Path var;
    /** Where every cell of the build keeps its shared cache and its share of the machine. */
    private final Path cells;
    private final Map<String, Integer> ports = new LinkedHashMap<>();
    private final Map<String, String> env = new LinkedHashMap<>();
    /** Environment variables left out of {@code bin/qaldy up} only. */
    private final Set<String> notAtUp = new HashSet<>();
    private final HttpClient http = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
    private final Thread cleanup = new Thread(this::killAll, "cell-cleanup");
    /** Whether this cell holds its share of the machine ({@link MachineShare}), given back once at {@link #close()}. */
    private boolean sharesMachine;
    /** Whether this cell takes the machine alone from its start to its close. */
    private boolean alone;

    private Cell(String name, Map<String, String> extraEnv, boolean twoGates) throws IOException {
        this(name, extraEnv, twoGates, null);
    }

    /** @param ownVar the state folder, or null for {@code cell-tests/target/cells/<name>} */
    private Cell(String name, Map<String, String> extraEnv, boolean twoGates, Path ownVar) throws IOException {
        root = repository();
        cells = root.resolve("cell-tests/target/cells");
        var = ownVar != null ? ownVar : cells.resolve(name);
        deleteTree(var);
        Files.createDirectories(var);
        if (twoGates) {
            components.add(components.indexOf("gate") + 1, "gate2");
        }
        if (!WITH_STATUS_PAGE.equals(extraEnv.get(NO_STATUS))) {
            components.remove("status");
        }
        for (String c : components) {
            ports.put(c, freePort());
            if (c.startsWith("gate")) {
                ports.put(c + INTERNAL, freePort()); // its internal listener (issue 16)
            }
            if (!c.equals("db")) {
                ports.put(c + ADMIN, freePort()); // its Admin Center on Open Liberty (issue 21; unused on Payara Micro)
            }
        }
        env.put("QALDY_VAR", var.toString());
        // Payara Micro, H2 and Micro's unpacked runtime, shared by every cell of the build (the pom
        // copies the jars there): no cell start runs Maven or unpacks Micro again.
        env.put("QALDY_CACHE", cells.resolve(".cache").toString());
        // No class data recording when a test restarts a component: it costs CPU at that start and
        // 30-40 s at the stop that writes the archive, on a machine running two cells at once.
        env.put("QALDY_CDS", "0");
        // Two cells at a time beside other builds: a Payara Micro took more than the launcher's 180 s
        // to deploy here (load 15-45). The cell tests are about what a started cell does, not how fast
        // it starts (bench/ measures that), so they wait longer; a test may still set its own.
        env.put("QALDY_READY_TIMEOUT_S", "600");
        // The status page watches from outside and serves nothing: a cell is started without it
        // (one JVM less, and up waits for it last) unless a test looks at it (NO_STATUS = WITH_STATUS_PAGE).
        env.put(NO_STATUS, "1");
        ports.forEach((c, p) -> env.put("QALDY_PORT_" + c.toUpperCase().replace('-', '_'), Integer.toString(p)));
        env.putAll(extraEnv);
        // The gate's C2 compiler pays off under sustained load (bench/), not in a test: every
        // component of a test cell runs C1 only, which starts it with less CPU.
        env.compute("QALDY_OPTS", (key, opts) -> opts == null ? C1_ONLY : C1_ONLY + " " + opts);
        Runtime.getRuntime().addShutdownHook(cleanup);
    }

    /** Starts a cell named {@code name} with extra environment for {@code bin/qaldy} (e.g. QALDY_OPTS_GATE). */
    public static Cell up(String name, Map<String, String> extraEnv) throws Exception {
        return up(name, extraEnv, false);
    }

    /** As {@link #up(String, Map)}, with a second gate ("gate2") when {@code twoGates}. */
    public static Cell up(String name, Map<String, String> extraEnv, boolean twoGates) throws Exception {
        return start(new Cell(name, extraEnv, twoGates), "up");
    }

    /**
     * As {@link #up(String, Map)}, on {@code server} ("payara" or "liberty": {@code bin/qaldy up
     * --server liberty}); a later {@code start} of a component without the flag uses the same server.
     */
    public static Cell up(String name, Map<String, String> extraEnv, String server) throws Exception {
        return start(new Cell(name, extraEnv, false), "up", "--server", server);
    }

    /** As {@link #up(String, Map, boolean)} on {@code server} ("payara" or "liberty"). */
    public static Cell up(String name, Map<String, String> extraEnv, boolean twoGates, String server) throws Exception {
        return start(new Cell(name, extraEnv, twoGates), "up", "--server", server);
    }

    /**
     * As {@link #up(String, Map)}, with a second control plane ("control2", {@code QALDY_PORT_CONTROL2})
     * on the same database, which runs the API and the scheduler too. It is not started by
     * {@code up} (a test starts it with {@code qaldy("start", "control2")}), but every other command,
     * {@code down} and {@link #close()} included, knows it.
     */
    public static Cell upWithTwoControlPlanes(String name, Map<String, String> extraEnv) throws Exception {
        return start(withControl2(new Cell(name, extraEnv, false)), "up");
    }

    /** {@code cell} with control2 known to every command but {@code up}. */
    private static Cell withControl2(Cell cell) throws IOException {
        cell.components.add(cell.components.indexOf("control") + 1, "control2");
        cell.ports.put("control2", freePort());
        cell.env.put("QALDY_PORT_CONTROL2", Integer.toString(cell.ports.get("control2")));
        cell.notAtUp.add("QALDY_PORT_CONTROL2");
        return cell;
    }

    /**
     * As {@link #upWithTwoControlPlanes}, on PostgreSQL ({@code QALDY_DB=postgres}, issue 19). Its state
     * folder is under the system's temporary folder: run by root, bin/qaldy runs PostgreSQL as the
     * user postgres, who must reach the folder (a clone under a closed home folder it cannot).
     */
    public static Cell upOnPostgresWithTwoControlPlanes(String name, Map<String, String> extraEnv) throws Exception {
        Map<String, String> env = new HashMap<>(extraEnv);
        env.put("QALDY_DB", "postgres");
        Path var = Path.of(System.getProperty("java.io.tmpdir"), "qaldy-cells", name);
        Files.createDirectories(var.getParent());
        return start(withControl2(new Cell(name, env, false, var)), "up");
    }

    /**
     * A cell of many hosts on PostgreSQL ({@code bin/qaldy up --hosts}, {@code QALDY_DB=postgres};
     * issue 19): every component in a network namespace of its own on the cell's bridge, reached from
     * here on 127.0.0.1 as any cell; two gates, and control2 known as in
     * {@link #upWithTwoControlPlanes}. Its state folder is under the system's temporary folder (see
     * {@link #upOnPostgresWithTwoControlPlanes}). {@link #close()} also removes its namespaces and bridge.
     */
    public static Cell upAsManyHostsOnPostgres(String name, Map<String, String> extraEnv) throws Exception {
        Map<String, String> env = new HashMap<>(extraEnv);
        env.put("QALDY_DB", "postgres");
        Path var = Path.of(System.getProperty("java.io.tmpdir"), "qaldy-cells", name);
        Files.createDirectories(var.getParent());
        // It changes the machine's network interfaces (a bridge, a veth per component): a Payara Micro
        // starting meanwhile in another fork's cell may bind its data grid to one of them as it goes
        // (the clean-clone run of 2ec2d33). So it has the machine alone from its bridge to its teardown.
        Cell cell = withControl2(new Cell(name, env, true, var));
        cell.alone = true;
        return start(cell, "up", "--hosts");
    }

    /**
     * As {@link #up(String, Map)}, with a second runtime host ("runtime2", {@code QALDY_PORT_RUNTIME2})
     * sharing the first one's data-centre cache; the gate keeps forwarding to the first.
     */
    public static Cell upWithTwoRuntimeHosts(String name, Map<String, String> extraEnv) throws Exception {
        Cell cell = new Cell(name, extraEnv, false);
        cell.components.add(cell.components.indexOf("runtime") + 1, "runtime2");
        cell.ports.put("runtime2", freePort());
        cell.env.put("QALDY_PORT_RUNTIME2", Integer.toString(cell.ports.get("runtime2")));
        return start(cell, "up");
    }

    /** A cell of its own with nothing started: the test starts what it needs with {@link #qaldy} (e.g. {@code start db}). */
    public static Cell stopped(String name, Map<String, String> extraEnv) throws Exception {
        Cell cell = new Cell(name, extraEnv, false);
        try {
            MachineShare.share(cell.cells);
            cell.sharesMachine = true;
        } catch (Exception | AssertionError e) {
            cell.close();
            throw e;
        }
        return cell;
    }

    private static Cell start(Cell cell, String... up) throws Exception {
        try {
            MachineShare.share(cell.cells);
            cell.sharesMachine = true;
            if (cell.alone) {
                MachineShare.aloneFromNow();
            }
            cell.qaldy(up);
        } catch (Exception | AssertionError e) {
            cell.close();
            throw e;
        }
        return cell;
    }

    /** Runs {@code bin/qaldy args…} for this cell; fails with its output when it exits non-zero. */
    public String qaldy(String... args) throws IOException, InterruptedException {
        return qaldy(Map.of(), args);
    }

    /**
     * {@code bin/qaldy start control}, then waits (at most 30 s) until the gate forwards the API to it again
     * ({@code GET /api/v1/ping} through the gate answers 200). bin/qaldy returns once the control plane is
     * ready, but the gate makes no API call while its view says failing (503 at once) and sees the control
     * plane back at its next probe: a test that calls the API right after the start waits for that.
     */
    public void startControl() throws IOException, InterruptedException {
        qaldy("start", "control");
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                .until(() -> send(request(publicHost(), "/api/v1/ping").timeout(Duration.ofSeconds(5)).GET().build()).statusCode() == 200);
    }

    /** As {@link #qaldy(String...)}, with {@code moreEnv} on top of the cell's environment for this one command. */
    public String qaldy(Map<String, String> moreEnv, String... args) throws IOException, InterruptedException {
        Run run = run(moreEnv, Duration.ofMinutes(10), args);
        if (run.exit() != 0) {
            throw new AssertionError("bin/qaldy " + String.join(" ", args) + " exited " + run.exit() + ":\n" + run.output());
        }
        return run.output();
    }

    /** How a {@code bin/qaldy} command ended: its exit code and its output (stdout and stderr). */
    public record Run(int exit, String output) {
    }

    /**
     * Runs {@code bin/qaldy args…} with {@code moreEnv} on top of the cell's environment and returns
     * how it ended, whatever the exit code; fails when it takes longer than {@code atMost}.
     */
    public Run run(Map<String, String> moreEnv, Duration atMost, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(root.resolve("bin/qaldy").toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(root.toFile()).redirectErrorStream(true);
        builder.environment().putAll(env);
        if (args.length > 0 && args[0].equals("up")) {
            notAtUp.forEach(builder.environment()::remove);
        }
        builder.environment().putAll(moreEnv);
        Path out = Files.createTempFile(var, "qaldy-", ".out");
        builder.redirectOutput(out.toFile());
        Process process = builder.start();
        if (!process.waitFor(atMost.toMillis(), TimeUnit.MILLISECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new AssertionError("bin/qaldy " + String.join(" ", args) + " did not finish in " + atMost + ":\n"
                    + Files.readString(out));
        }
        return new Run(process.exitValue(), Files.readString(out));
    }

    /** The pid of a running component, from the cell's pid file. */
    public long pid(String component) throws IOException {
        return Long.parseLong(Files.readString(var.resolve("run/" + component + ".pid")).trim());
    }

    /** Sends a signal (e.g. "STOP", "CONT", "KILL") to a component's process. */
    public void signal(String component, String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid(component))).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new AssertionError("kill -" + signal + " " + component + " failed");
        }
    }

    /**
     * The data feed position a runtime host's replica holds (issue 18), from the {@code data-replica}
     * check of its {@code /health/ready}; -1 while it does not answer.
     */
    public long dataReplicaPosition(String runtime) {
        try {
            HttpResponse<String> ready = send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port(runtime) + "/health/ready"))
                    .timeout(Duration.ofSeconds(3)).GET().build());
            for (jakarta.json.JsonObject check : Person.json(ready.body()).getJsonArray("checks").getValuesAs(jakarta.json.JsonObject.class)) {
                if (check.getString("name").equals("data-replica")) {
                    // Payara Micro writes a check's numbers as JSON strings, Open Liberty as numbers
                    return Long.parseLong(check.getJsonObject("data").get("position").toString().replace("\"", ""));
                }
            }
        } catch (Exception e) {
            return -1;
        }
        return -1;
    }

    /** A component's port, a gate's internal listener's ("gate-internal", "gate2-internal") or a Liberty server's Admin Center's ("gate-admin"). */
    public int port(String component) {
        return ports.get(component);
    }

    public Path var() {
        return var;
    }

    public Path root() {
        return root;
    }

    /** The repository's root folder (where {@code bin/qaldy} is), before any cell exists. */
    public static Path repository() {
        return Path.of(System.getProperty("qaldy.root", "..")).toAbsolutePath().normalize();
    }

    /** The public origin of the console and API, as people see it. */
    public String publicHost() {
        return "localhost:" + port("gate");
    }

    /** An app's own origin's host, as people see it. */
    public String appHost(String app) {
        return app + ".localhost:" + port("gate");
    }

    /** A request to the gate for {@code host}; connects to 127.0.0.1 and sends the Host header. */
    public HttpRequest.Builder request(String host, String pathAndQuery) {
        return request("gate", host, pathAndQuery);
    }

    /**
     * A request to one gate's internal listener ("gate" or "gate2"), where the control plane calls it
     * (issue 16: {@code /.qaldy/internal/…} is served there only); connects to 127.0.0.1.
     */
    public HttpRequest.Builder internalRequest(String gate, String pathAndQuery) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port(gate + INTERNAL) + pathAndQuery))
                .timeout(Duration.ofSeconds(30));
    }

    /** A request to one gate ("gate" or "gate2") for {@code host}. */
    public HttpRequest.Builder request(String gate, String host, String pathAndQuery) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port(gate) + pathAndQuery))
                .timeout(Duration.ofSeconds(30))
                .header("Host", host);
    }

    /**
     * A service call straight to the control plane ({@code path} from {@code /api/v1/…}), with the
     * gate's credential for it (gate-to-control), as the gate makes them; {@code json} may be null.
     */
    public HttpResponse<String> serviceCall(String method, String path, String json) throws IOException, InterruptedException {
        String token = credential("gate-to-control");
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port("control") + path))
                .timeout(Duration.ofSeconds(30)).header("X-Qaldy-Service-Token", token);
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        return send(request.method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(json)).build());
    }

    /** The cell's service credential of {@code direction} (e.g. {@code control-to-gate}), as bin/qaldy made it in var/keys. */
    public String credential(String direction) throws IOException {
        return Files.readString(var.resolve("keys").resolve(direction)).trim();
    }

    /**
     * A data grant for {@code app} as the gate sends it with a request to the runtime host (keyed from
     * var/keys/gate-to-control), for a test that stands in for the gate.
     */
    public String dataGrant(String app) throws IOException {
        return new DataGrants(ServiceCredential.of(credential("gate-to-control"), "the cell's gate-to-control")).issue(app, Instant.now());
    }

    public HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
        return http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    public HttpClient http() {
        return http;
    }

    /** The demo person's credentials that {@code bin/qaldy up} wrote. */
    public Map<String, String> demoEnv() throws IOException {
        Map<String, String> values = new LinkedHashMap<>();
        for (String line : Files.readAllLines(var.resolve("demo.env"))) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                values.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return values;
    }

    /**
     * Stops the cell: SIGKILL to every component by pid (a test cell keeps nothing), waiting until each
     * is gone; on a cell of many hosts also its forwarders, namespaces and bridge ({@code bin/qaldy down}
     * with nothing left running).
     */
    @Override
    public void close() {
        // SIGKILL, not bin/qaldy down: nothing of a test cell is kept, and a graceful stop of its
        // Payara Micros cost about 20 s of every test class.
        killAll();
        if (Files.exists(var.resolve("hosts.net"))) {
            try {
                Run down = run(Map.of(), Duration.ofMinutes(1), "down");
                if (down.exit() != 0) {
                    System.err.println("cell: bin/qaldy down after the kill: " + down.output());
                }
            } catch (IOException | InterruptedException | AssertionError e) {
                System.err.println("cell: could not remove the hosts of " + var + ": " + e);
            }
        }
        if (sharesMachine) {
            sharesMachine = false;
            MachineShare.release();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running already
        }
    }

    /**
     * Kills every component by the pid in its pid file (and anything it started), and on a cell of many
     * hosts its forwarder (var/run/C.forward.pid), and waits (≤ 10 s each) until each is gone.
     */
    private void killAll() {
        List<ProcessHandle> killed = new ArrayList<>();
        List<Long> pids = new ArrayList<>();
        for (String c : components) {
            for (String file : List.of(c, c + ".forward")) { // a forwarder's file holds one pid a line
                try {
                    Files.readAllLines(var.resolve("run/" + file + ".pid")).stream().map(String::trim)
                            .filter(line -> line.matches("\\d+")).map(Long::valueOf).forEach(pids::add);
                } catch (IOException noFile) {
                    // not running
                }
            }
        }
        for (long pid : pids) {
            try {
                ProcessHandle.of(pid).ifPresent(p -> {
                    p.descendants().forEach(d -> {
                        d.destroyForcibly();
                        killed.add(d);
                    });
                    p.destroyForcibly();
                    killed.add(p);
                });
            } catch (RuntimeException noPid) {
                // not running
            }
        }
        for (ProcessHandle p : killed) {
            try {
                p.onExit().get(10, TimeUnit.SECONDS);
            } catch (Exception stillThere) {
                System.err.println("cell: pid " + p.pid() + " did not end within 10 s of SIGKILL");
            }
        }
    }

    /**
     * A free port below the kernel's ephemeral range ({@code net.ipv4.ip_local_port_range}, 32768
     * by default): a port inside it can be taken by any outgoing connection, and a client that
     * keeps connecting to a stopped server's port can connect to itself (TCP simultaneous open),
     * after which the server cannot bind its port again. The soak found exactly that: the control
     * plane reconnecting to an H2 killed on port 48092 held 127.0.0.1:48092 → 127.0.0.1:48092, H2's
     * next start failed with "Address already in use", and a port check saw the database up.
     */
    private static int freePort() throws IOException {
        int below = ephemeralLow();
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = LOWEST_PORT + PORTS.nextInt(below - LOWEST_PORT);
            try (ServerSocket socket = new ServerSocket()) {
                socket.bind(new InetSocketAddress(port)); // every address, as the servers bind
                return port;
            } catch (IOException taken) {
                // another cell's, or in use: try another
            }
        }
        throw new IOException("no free port between " + LOWEST_PORT + " and " + below);
    }

    /** The first port of the kernel's ephemeral range; 32768 when it cannot be read. */
    private static int ephemeralLow() {
        try {
            int low = Integer.parseInt(Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim().split("\\s+")[0]);
            return low > LOWEST_PORT + 1000 ? low : 32_768;
        } catch (IOException | RuntimeException e) {
            return 32_768;
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
