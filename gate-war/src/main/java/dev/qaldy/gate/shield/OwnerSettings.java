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
 * What an app's owner set for its shield through the control plane, as the gate read it from
 * {@code GET /api/v1/internal/shield-settings} (docs/cell-contract.md): lower limits, user agents
 * and address ranges blocked on top of the cell's and config's, and the zone of the app's day.
 *
 * @param app               the app's name
 * @param sequence          of the change in the control plane (later changes have higher ones)
 * @param blockedUserAgents compiled patterns
 * @param deniedRanges      address ranges
 * @param limits            the owner's lower limits
 * @param dayZone           the zone whose days the daily limit counts for the app; null: the gate's default
 */
public record OwnerSettings(String app, long sequence, List<Pattern> blockedUserAgents, IpRanges deniedRanges, OwnLimits limits,
        ZoneId dayZone) {

    /** Most patterns and ranges read per app (the control plane allows 20 and 50). */
    static final int MAX_PATTERNS = 20;
    static final int MAX_RANGES = 50;
    static final int MAX_PATTERN_LENGTH = 200;
    /** Longest zone id read (the control plane allows 64 characters). */
    static final int MAX_ZONE_LENGTH = 64;

    public OwnerSettings {
        Objects.requireNonNull(app, "app");
        blockedUserAgents = List.copyOf(blockedUserAgents);
        Objects.requireNonNull(deniedRanges, "deniedRanges");
        Objects.requireNonNull(limits, "limits");
    }

    /** True when the owner set nothing (or the app was deleted): config's settings apply. */
    public boolean none() {
        return blockedUserAgents.isEmpty() && deniedRanges.isEmpty() && limits.none() && dayZone == null;
    }

    /**
     * Reads one entry of the feed. An entry without a valid app name or sequence is empty (skipped);
     * a number that is not a whole number ≥ 1 counts as not set; a pattern that does not compile or
     * a range that does not parse is left out and reported to {@code problems}, the rest still applies;
     * so is a {@code dayZone} that is not a region id this JVM knows (the gate's default zone applies).
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

    /** The same shape the feed sends, for the gate's own copy on disk. */
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

    /** The entry's {@code dayZone}: null when absent, null or not a region id this JVM knows (reported). */
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
