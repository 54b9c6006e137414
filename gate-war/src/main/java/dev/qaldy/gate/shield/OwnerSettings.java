package dev.qaldy.gate.shield;

import dev.qaldy.contract.apps.AppLabel;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * What an app's owner set for its shield, as read from {@code GET /api/v1/internal/shield-settings}
 * (docs/cell-contract.md): lower limits, blocked user agents and ranges on top of config's, and the
 * zone of the app's day.
 *
 * @param sequence later changes have higher ones
 * @param dayZone  null: the gate's default
 */
public record OwnerSettings(String app, long sequence, List<Pattern> blockedUserAgents, IpRanges deniedRanges, OwnLimits limits,
        ZoneId dayZone) {

    /** The control plane allows 20 and 50. */
    static final int MAX_PATTERNS = 20;
    static final int MAX_RANGES = 50;
    static final int MAX_PATTERN_LENGTH = 200;
    /** The control plane allows 64 characters. */
    static final int MAX_ZONE_LENGTH = 64;

    public OwnerSettings {
        Objects.requireNonNull(app, "app");
        blockedUserAgents = List.copyOf(blockedUserAgents);
        Objects.requireNonNull(deniedRanges, "deniedRanges");
        Objects.requireNonNull(limits, "limits");
    }

    /** The owner set nothing (or the app was deleted): config's settings apply. */
    public boolean none() {
        return blockedUserAgents.isEmpty() && deniedRanges.isEmpty() && limits.none() && dayZone == null;
    }

    /**
     * Reads one feed entry; empty without a valid app name and sequence. A number not ≥ 1 counts as not
     * set; a bad pattern, range or {@code dayZone} is left out and reported to {@code problems}.
     */
    public static Optional<OwnerSettings> read(JsonObject json, Consumer<String> problems) {
        String app = json.get("app") instanceof JsonString s ? s.getString() : null;
        if (app == null || !AppLabel.valid(app) || !(json.get("sequence") instanceof JsonNumber seq) || !seq.isIntegral()) {
            problems.accept("an entry without a valid app name and sequence");
            return Optional.empty();
        }
        List<Pattern> patterns = new ArrayList<>();
        for (String regex : strings(json, "blockedUserAgents", MAX_PATTERNS)) {
            try {
                if (regex.length() <= MAX_PATTERN_LENGTH) {
                    patterns.add(Pattern.compile(regex));
                } else {
                    problems.accept(app + ": a user-agent pattern longer than " + MAX_PATTERN_LENGTH + " characters");
                }
            } catch (PatternSyntaxException e) {
                problems.accept(app + ": not a regular expression: " + regex);
            }
        }
        List<Cidr> ranges = new ArrayList<>();
        for (String range : strings(json, "deniedCidrs", MAX_RANGES)) {
            try {
                ranges.add(Cidr.parse(range));
            } catch (IllegalArgumentException e) {
                problems.accept(app + ": " + e.getMessage());
            }
        }
        OwnLimits limits = new OwnLimits(number(json, "perClientPerMinute"), number(json, "perAppPerMinute"),
                number(json, "perAppPerDay"));
        return Optional.of(new OwnerSettings(app, seq.longValue(), patterns, new IpRanges(ranges), limits, zone(json, app, problems)));
    }

    /** The feed's shape, for the gate's own copy on disk. */
    public JsonObject toJson() {
        JsonArrayBuilder agents = Json.createArrayBuilder();
        blockedUserAgents.forEach(p -> agents.add(p.pattern()));
        JsonArrayBuilder ranges = Json.createArrayBuilder();
        deniedRanges.ranges().forEach(r -> ranges.add(r.toString()));
        return Json.createObjectBuilder().add("app", app).add("sequence", sequence)
                .add("perClientPerMinute", limits.perClientPerMinute()).add("perAppPerMinute", limits.perAppPerMinute())
                .add("perAppPerDay", limits.perAppPerDay()).add("blockedUserAgents", agents).add("deniedCidrs", ranges)
                .add("dayZone", dayZone == null ? JsonValue.NULL : Json.createValue(dayZone.getId())).build();
    }

    private static ZoneId zone(JsonObject json, String app, Consumer<String> problems) {
        JsonValue value = json.get("dayZone");
        if (value == null || value == JsonValue.NULL) {
            return null;
        }
        if (value instanceof JsonString s && s.getString().length() <= MAX_ZONE_LENGTH
                && ZoneId.getAvailableZoneIds().contains(s.getString())) {
            return ZoneId.of(s.getString());
        }
        String shown = value.toString();
        problems.accept(app + ": not a time zone this gate knows, counting in its default zone: "
                + (shown.length() > MAX_ZONE_LENGTH ? shown.substring(0, MAX_ZONE_LENGTH) + "…" : shown));
        return null;
    }

    private static long number(JsonObject json, String field) {
        return json.get(field) instanceof JsonNumber n && n.isIntegral() && n.longValue() > 0 ? n.longValue() : 0;
    }

    private static List<String> strings(JsonObject json, String field, int max) {
        List<String> out = new ArrayList<>();
        if (json.get(field) instanceof JsonArray array) {
            for (JsonValue item : array) {
                if (item instanceof JsonString s && out.size() < max) {
                    out.add(s.getString());
                }
            }
        }
        return out;
    }
}
