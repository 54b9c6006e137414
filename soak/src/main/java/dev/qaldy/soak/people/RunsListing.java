package dev.qaldy.soak.people;

import dev.qaldy.soak.Soak;
import dev.qaldy.drill.cast.Json;
import dev.qaldy.soak.history.Kind;
import dev.qaldy.soak.history.Recorder;
import dev.qaldy.soak.history.Run;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The runs of the app with webhooks and schedules, as the API lists them once the soak is over
 * (every page, newest first), waited for until none is queued or running any more; recorded for
 * the checker.
 */
public final class RunsListing {

    private RunsListing() {
    }

    /**
     * Lists the runs until none is pending or {@code wait} passed, then records the last listing.
     *
     * @return how many runs were recorded, or -1 when the API did not list them
     */
    public static int record(Acts acts, SoakCast cast, Recorder recorder, Duration wait) {
        long deadline = Soak.CLOCK.millis() + wait.toMillis();
        List<Run> runs = null;
        while (Soak.CLOCK.millis() < deadline) {
            List<Run> listed = list(acts, cast);
            if (listed != null) {
                runs = listed;
                if (listed.stream().allMatch(Run::ended)) {
                    break;
                }
            }
            Actor.sleep(3000);
        }
        if (runs == null) {
            return -1;
        }
        runs.forEach(recorder::run);
        return runs.size();
    }

    private static List<Run> list(Acts acts, SoakCast cast) {
        List<Run> runs = new ArrayList<>();
        Long before = null;
        do {
            Acts.Did page = acts.api("listing", Kind.READ, cast.owner, "gate", "GET", "/apps/" + cast.hooks + "/runs?limit=200"
                    + (before == null ? "" : "&before=" + before), null, cast.hooks, Map.of());
            if (page.seen().status() != 200) {
                return null;
            }
            JsonObject json = Json.object(page.seen().body(), "runs");
            for (JsonObject r : json.getJsonArray("runs").getValuesAs(JsonObject.class)) {
                runs.add(new Run(cast.hooks, r.getJsonNumber("id").longValue(),
                        r.get("schedule") instanceof JsonNumber n ? n.longValue() : null, r.get("hook") instanceof JsonString h ? h.getString() : null,
                        r.getString("actor", ""), r.getString("state", ""), instant(r, "tick"), instant(r, "createdAt"),
                        r.isNull("log") ? List.of() : r.getJsonArray("log").getValuesAs(JsonString.class).stream()
                                .map(JsonString::getString).toList()));
            }
            before = json.isNull("nextBefore") ? null : json.getJsonNumber("nextBefore").longValue();
        } while (before != null);
        return runs;
    }

    private static long instant(JsonObject r, String field) {
        JsonValue v = r.get(field);
        if (v instanceof JsonString s) {
            return Instant.parse(s.getString()).toEpochMilli();
        }
        if (v instanceof JsonNumber n) {
            return n.longValue();
        }
        return -1;
    }
}
