package dev.qaldy.contract.hooks;

import dev.qaldy.contract.apps.AppLabel;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What a gate needs to check a delivery to one hook itself while the API cannot be asked (issue 17),
 * as the control plane's internal feed and its pushes carry it, and as the gate keeps it:
 * {@code {"app","hook","sequence","job","secrets":[…],"since"[,"previousUntil"][,"owner"]}}, or
 * {@code {"app","hook","sequence","deleted":true}}. The newer change (higher {@code sequence}) wins.
 * Holds secrets: only on the internal listener and feed, never logged ({@link #toString} leaves them
 * out), never in a public answer.
 *
 * @param secrets       the current secret first; after a roll, the previous one second
 * @param since         epoch ms from which the current secret is in force
 * @param previousUntil epoch ms until which the second secret is in force (0: none); past it the
 *                      gate refuses it on its own, no change needed
 * @param owner         the app's owner (a person id), who may see what waits at the edge; 0 when not told
 */
public record HookMaterial(String app, String hook, long sequence, String job, List<String> secrets, long since, long previousUntil,
        long owner, boolean deleted) {

    /** The control plane's hook names. */
    public static final Pattern NAME = Pattern.compile("[a-z0-9-]{1,40}");
    /** Most secrets in force at once, and the longest. */
    static final int MAX_SECRETS = 4;
    static final int MAX_SECRET_LENGTH = 128;

    public HookMaterial {
        secrets = List.copyOf(secrets);
    }

    /** A deleted hook's tombstone: no secrets. */
    public static HookMaterial deleted(String app, String hook, long sequence) {
        return new HookMaterial(app, hook, sequence, null, List.of(), 0, 0, 0, true);
    }

    /** {@code app/hook}. */
    public String key() {
        return key(app, hook);
    }

    /** The secrets a delivery checked at {@code nowMillis} (epoch ms) may be signed with: the rolled-over one only until its end. */
    public List<String> secretsAt(long nowMillis) {
        return secrets.size() > 1 && nowMillis >= previousUntil ? secrets.subList(0, 1) : secrets;
    }

    public static String key(String app, String hook) {
        return app + "/" + hook;
    }

    /** The feed's shape; empty (and {@code problem} told) when it is not one. */
    public static Optional<HookMaterial> read(JsonObject json, java.util.function.Consumer<String> problem) {
        String app = json.get("app") instanceof JsonString a ? a.getString() : null;
        String hook = json.get("hook") instanceof JsonString h ? h.getString() : null;
        if (!AppLabel.valid(app) || hook == null || !NAME.matcher(hook).matches()
                || !(json.get("sequence") instanceof JsonNumber seq) || !seq.isIntegral() || seq.longValue() < 1) {
            problem.accept("a hook entry without a valid app, hook name or sequence");
            return Optional.empty();
        }
        if (json.get("deleted") == JsonValue.TRUE) {
            return Optional.of(deleted(app, hook, seq.longValue()));
        }
        List<String> secrets = new ArrayList<>();
        if (json.get("secrets") instanceof jakarta.json.JsonArray array) {
            for (JsonValue value : array) {
                if (value instanceof JsonString s && !s.getString().isEmpty() && s.getString().length() <= MAX_SECRET_LENGTH) {
                    secrets.add(s.getString());
                }
            }
        }
        String job = json.get("job") instanceof JsonString j ? j.getString() : null;
        if (secrets.isEmpty() || secrets.size() > MAX_SECRETS || job == null
                || !(json.get("since") instanceof JsonNumber since) || !since.isIntegral()) {
            problem.accept("hook " + key(app, hook) + ": no job, no usable secrets or no since");
            return Optional.empty();
        }
        long previousUntil = json.get("previousUntil") instanceof JsonNumber until && until.isIntegral() ? until.longValue() : 0;
        long owner = json.get("owner") instanceof JsonNumber o && o.isIntegral() ? o.longValue() : 0;
        return Optional.of(new HookMaterial(app, hook, seq.longValue(), job, secrets, since.longValue(), previousUntil, owner, false));
    }

    /** The feed's shape, which {@link #read} takes. */
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

    @Override
    public String toString() {
        return "hook " + key() + " (change " + sequence + (deleted ? ", deleted)" : ", " + secrets.size() + " secrets)");
    }
}
