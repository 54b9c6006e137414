package dev.qaldy.control.shield.boundary;

import dev.qaldy.control.platform.control.InvalidInput;
import dev.qaldy.control.shield.entity.ShieldRules;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The JSON shape of shield settings, the same for the owner and the gates:
 * {@code {"app","perClientPerMinute","perAppPerMinute","perAppPerDay","blockedUserAgents":[…],"deniedCidrs":[…],"dayZone","sequence","updatedAt"}};
 * a number is {@code null} where the plan's value applies, {@code dayZone} (an IANA zone id) is
 * {@code null} where the gate's default zone applies.
 */
final class ShieldJson {

    static final Set<String> FIELDS = Set.of("perClientPerMinute", "perAppPerMinute", "perAppPerDay", "blockedUserAgents",
            "deniedCidrs", "dayZone");

    private ShieldJson() {
    }

    /** One app's settings. */
    static JsonObject of(Shields.View view) {
        ShieldRules r = view.rules();
        JsonObjectBuilder json = Json.createObjectBuilder().add("app", view.app());
        number(json, "perClientPerMinute", r.perClientPerMinute());
        number(json, "perAppPerMinute", r.perAppPerMinute());
        number(json, "perAppPerDay", r.perAppPerDay());
        JsonArrayBuilder agents = Json.createArrayBuilder();
        r.blockedUserAgents().forEach(agents::add);
        JsonArrayBuilder ranges = Json.createArrayBuilder();
        r.deniedCidrs().forEach(ranges::add);
        json.add("blockedUserAgents", agents).add("deniedCidrs", ranges);
        if (r.dayZone() == null) {
            json.addNull("dayZone");
        } else {
            json.add("dayZone", r.dayZone());
        }
        return json.add("sequence", view.sequence()).add("updatedAt", view.updatedAt()).build();
    }

    /**
     * Reads the owner's settings: every field optional (a missing number is the plan's value, a
     * missing list is empty, a missing zone is the gate's default), no other field allowed.
     *
     * @throws InvalidInput naming the field
     */
    static ShieldRules read(JsonObject body) {
        for (String field : body.keySet()) {
            if (!FIELDS.contains(field)) {
                throw new InvalidInput("unknown field \"" + field + "\"; known: " + FIELDS);
            }
        }
        return new ShieldRules(number(body, "perClientPerMinute"), number(body, "perAppPerMinute"), number(body, "perAppPerDay"),
                strings(body, "blockedUserAgents"), strings(body, "deniedCidrs"), zone(body));
    }

    /** {@code dayZone}: null, or a string (checked by {@link ShieldRules}); blank counts as null. */
    private static String zone(JsonObject body) {
        JsonValue value = body.get("dayZone");
        if (value == null || value == JsonValue.NULL) {
            return null;
        }
        if (!(value instanceof JsonString s)) {
            throw new InvalidInput("\"dayZone\" must be a time zone name such as Europe/Berlin, or null (the gate's default, UTC)");
        }
        String zone = s.getString().trim();
        return zone.isEmpty() ? null : zone;
    }

    private static void number(JsonObjectBuilder json, String field, Long value) {
        if (value == null) {
            json.addNull(field);
        } else {
            json.add(field, value);
        }
    }

    private static Long number(JsonObject body, String field) {
        JsonValue value = body.get(field);
        if (value == null || value == JsonValue.NULL) {
            return null;
        }
        if (!(value instanceof JsonNumber n) || !n.isIntegral()) {
            throw new InvalidInput("\"" + field + "\" must be a whole number or null");
        }
        try {
            return n.longValueExact();
        } catch (ArithmeticException e) {
            throw new InvalidInput("\"" + field + "\" is out of range");
        }
    }

    private static List<String> strings(JsonObject body, String field) {
        JsonValue value = body.get(field);
        if (value == null || value == JsonValue.NULL) {
            return List.of();
        }
        if (!(value instanceof JsonArray array) || array.size() > 100) {
            throw new InvalidInput("\"" + field + "\" must be an array of strings");
        }
        List<String> out = new ArrayList<>();
        for (JsonValue item : array) {
            if (!(item instanceof JsonString s)) {
                throw new InvalidInput("\"" + field + "\" must be an array of strings");
            }
            out.add(s.getString().trim());
        }
        return out;
    }
}
