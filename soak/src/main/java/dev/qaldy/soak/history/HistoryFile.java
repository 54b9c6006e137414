package dev.qaldy.soak.history;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A history as JSON lines ({@code history.jsonl}), one record a line with its {@code type}: the
 * soak writes each line as it happens (a soak that died leaves what it saw), and
 * {@code bin/qaldy soak --check FILE} reads it back to judge it again.
 */
public final class HistoryFile {

    private HistoryFile() {
    }

    /** The line of the history's head: seed, start, the components, whether links could be cut. */
    public static String head(long seed, long started, List<String> components, boolean partitions) {
        JsonArrayBuilder c = Json.createArrayBuilder();
        components.forEach(c::add);
        return Json.createObjectBuilder().add("type", "head").add("seed", seed).add("started", started).add("components", c)
                .add("partitions", partitions).build().toString();
    }

    public static String line(Op op) {
        return Json.createObjectBuilder().add("type", "op").add("id", op.id()).add("actor", op.actor()).add("kind", op.kind().name())
                .add("gate", op.gate()).add("app", op.app()).add("start", op.start()).add("end", op.end()).add("took", op.took()).add("status", op.status())
                .add("message", op.message()).add("headers", map(op.headers())).add("facts", map(op.facts())).build().toString();
    }

    public static String line(Fault f) {
        return Json.createObjectBuilder().add("type", "fault").add("round", f.round()).add("component", f.component())
                .add("kind", f.kind().name()).add("start", f.start()).add("down", f.down()).add("up", f.up()).add("ready", f.ready())
                .add("note", f.note()).build().toString();
    }

    public static String line(Run r) {
        JsonObjectBuilder b = Json.createObjectBuilder().add("type", "run").add("app", r.app()).add("id", r.id()).add("actor", r.actor())
                .add("state", r.state()).add("tick", r.tick()).add("createdAt", r.createdAt());
        if (r.schedule() != null) {
            b.add("schedule", r.schedule());
        }
        if (r.hook() != null) {
            b.add("hook", r.hook());
        }
        JsonArrayBuilder log = Json.createArrayBuilder();
        r.log().forEach(log::add);
        return b.add("log", log).build().toString();
    }

    public static String line(Recovery r) {
        JsonObjectBuilder ok = Json.createObjectBuilder();
        r.firstOk().forEach(ok::add);
        return Json.createObjectBuilder().add("type", "recovery").add("round", r.round()).add("healed", r.healed())
                .add("firstOk", ok).add("gaveUp", r.gaveUp()).build().toString();
    }

    /** The line of the history's end. */
    public static String tail(long ended) {
        return Json.createObjectBuilder().add("type", "end").add("ended", ended).build().toString();
    }

    /** Reads a history written by the soak; {@link IOException} when the file is not one (naming the line). */
    public static History read(Path file) throws IOException {
        long seed = 0;
        long started = 0;
        long ended = 0;
        List<String> components = new ArrayList<>();
        boolean partitions = false;
        List<Op> ops = new ArrayList<>();
        List<Fault> faults = new ArrayList<>();
        List<Run> runs = new ArrayList<>();
        List<Recovery> recoveries = new ArrayList<>();
        int number = 0;
        try (BufferedReader lines = Files.newBufferedReader(file)) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                number++;
                if (line.isBlank()) {
                    continue;
                }
                JsonObject o;
                try (JsonReader reader = Json.createReader(new StringReader(line))) {
                    o = reader.readObject();
                } catch (RuntimeException e) {
                    throw new IOException(file + " line " + number + " is no JSON object: " + e.getMessage(), e);
                }
                switch (o.getString("type", "")) {
                    case "head" -> {
                        seed = o.getJsonNumber("seed").longValue();
                        started = o.getJsonNumber("started").longValue();
                        o.getJsonArray("components").getValuesAs(JsonString.class).forEach(s -> components.add(s.getString()));
                        partitions = o.getBoolean("partitions", false);
                    }
                    case "op" -> ops.add(new Op(o.getJsonNumber("id").longValue(), o.getString("actor"), Kind.valueOf(o.getString("kind")),
                            o.getString("gate"), o.getString("app"), o.getJsonNumber("start").longValue(), o.getJsonNumber("end").longValue(),
                            o.containsKey("took") ? o.getJsonNumber("took").longValue()
                                    : o.getJsonNumber("end").longValue() - o.getJsonNumber("start").longValue(),
                            o.getInt("status"), o.getString("message"), strings(o.getJsonObject("headers")), strings(o.getJsonObject("facts"))));
                    case "fault" -> faults.add(new Fault(o.getInt("round"), o.getString("component"), FaultKind.valueOf(o.getString("kind")),
                            o.getJsonNumber("start").longValue(), o.getJsonNumber("down").longValue(), o.getJsonNumber("up").longValue(),
                            o.getJsonNumber("ready").longValue(), o.getString("note")));
                    case "run" -> runs.add(new Run(o.getString("app"), o.getJsonNumber("id").longValue(),
                            o.containsKey("schedule") ? o.getJsonNumber("schedule").longValue() : null, o.getString("hook", null),
                            o.getString("actor"), o.getString("state"), o.getJsonNumber("tick").longValue(),
                            o.getJsonNumber("createdAt").longValue(),
                            o.getJsonArray("log").getValuesAs(JsonString.class).stream().map(JsonString::getString).toList()));
                    case "recovery" -> {
                        Map<String, Long> ok = new LinkedHashMap<>();
                        o.getJsonObject("firstOk").forEach((k, v) -> ok.put(k, ((JsonNumber) v).longValue()));
                        recoveries.add(new Recovery(o.getInt("round"), o.getJsonNumber("healed").longValue(), ok,
                                o.getJsonNumber("gaveUp").longValue()));
                    }
                    case "end" -> ended = o.getJsonNumber("ended").longValue();
                    default -> throw new IOException(file + " line " + number + " has no known type: " + line);
                }
            }
        } catch (RuntimeException e) {
            throw new IOException(file + " line " + number + " is not a soak history record: " + e, e);
        }
        if (ended == 0) { // a soak that died: its history ends with its last answer
            for (Op op : ops) {
                ended = Math.max(ended, op.end());
            }
        }
        return new History(seed, started, ended, components, partitions, ops, faults, runs, recoveries);
    }

    private static JsonObject map(Map<String, String> values) {
        JsonObjectBuilder b = Json.createObjectBuilder();
        values.forEach(b::add);
        return b.build();
    }

    private static Map<String, String> strings(JsonObject o) {
        Map<String, String> values = new LinkedHashMap<>();
        o.forEach((k, v) -> values.put(k, ((JsonString) v).getString()));
        return values;
    }
}
