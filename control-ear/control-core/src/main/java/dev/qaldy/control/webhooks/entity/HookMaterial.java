package dev.qaldy.control.webhooks.entity;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.time.Instant;
import java.util.List;

/**
 * What a gate needs to check a delivery to one hook itself while the API cannot be asked (issue 17),
 * as the feed and the push carry it: {@code {"app","hook","sequence","job","secrets":[…],"since"[,"previousUntil"],"owner"}},
 * or {@code {"app","hook","sequence","deleted":true}}. Only on the internal listener and the
 * internal feed, never in a public answer.
 *
 * @param secrets       the current secret first, then the rolled-over one while it may be in force; empty for a deleted hook
 * @param since         epoch ms from which the current secret is in force
 * @param previousUntil epoch ms until which the second secret is in force; 0 when there is none
 * @param owner         the app owner's person id (the gate shows only them what waits at the edge); 0 for a deleted hook
 */
public record HookMaterial(String app, String hook, long sequence, String job, List<String> secrets, long since,
        long previousUntil, long owner, boolean deleted) {

    /** @param now when the material is made: a rolled-over secret already stopped is left out */
    public static HookMaterial of(Hook hook, long sequence, Instant now) {
        boolean previous = hook.previousAcceptedUntil(now) != null;
        Long owner = hook.app().owner().id();
        return new HookMaterial(hook.app().name(), hook.name(), sequence, hook.job(),
                previous ? List.of(hook.secret(), hook.previousSecret()) : List.of(hook.secret()),
                hook.secretSince().toEpochMilli(), previous ? hook.previousUntil().toEpochMilli() : 0,
                owner == null ? 0 : owner, false);
    }

    public static HookMaterial deleted(String app, String hook, long sequence) {
        return new HookMaterial(app, hook, sequence, null, List.of(), 0, 0, 0, true);
    }

    public JsonObject toJson() {
        JsonObjectBuilder json = Json.createObjectBuilder().add("app", app).add("hook", hook).add("sequence", sequence);
        if (deleted) {
            return json.add("deleted", true).build();
        }
        JsonArrayBuilder all = Json.createArrayBuilder();
        secrets.forEach(all::add);
        json.add("job", job).add("secrets", all).add("since", since);
        if (previousUntil > 0) {
            json.add("previousUntil", previousUntil);
        }
        if (owner > 0) {
            json.add("owner", owner);
        }
        return json.build();
    }
}
