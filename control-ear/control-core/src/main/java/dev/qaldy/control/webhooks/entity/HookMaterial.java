package dev.qaldy.control.webhooks.entity;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.List;

/**
 * What a gate needs to check a delivery to one hook itself while the API cannot be asked (issue 17),
 * as the feed and the push carry it: {@code {"app","hook","sequence","job","secrets":[…],"since"}},
 * or {@code {"app","hook","sequence","deleted":true}}. Only on the internal listener and the
 * internal feed, never in a public answer.
 *
 * @param secrets the secrets in force, empty for a deleted hook
 * @param since   epoch ms from which the secrets are in force (the hook's creation)
 */
public record HookMaterial(String app, String hook, long sequence, String job, List<String> secrets, long since,
        boolean deleted) {

    public static HookMaterial of(Hook hook, long sequence) {
        return new HookMaterial(hook.app().name(), hook.name(), sequence, hook.job(), List.of(hook.secret()),
                hook.createdAt().toEpochMilli(), false);
    }

    public static HookMaterial deleted(String app, String hook, long sequence) {
        return new HookMaterial(app, hook, sequence, null, List.of(), 0, true);
    }

    public JsonObject toJson() {
        JsonObjectBuilder json = Json.createObjectBuilder().add("app", app).add("hook", hook).add("sequence", sequence);
        if (deleted) {
            return json.add("deleted", true).build();
        }
        JsonArrayBuilder all = Json.createArrayBuilder();
        secrets.forEach(all::add);
        return json.add("job", job).add("secrets", all).add("since", since).build();
    }
}
