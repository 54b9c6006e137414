package dev.qaldy.gate.hooks;

import dev.qaldy.contract.hooks.HookMaterial;
import dev.qaldy.gate.platform.InternalCall;
import dev.qaldy.gate.platform.Page;
import dev.qaldy.gate.platform.Pages;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@code POST /.qaldy/internal/hooks} on the internal listener, control-to-gate credential: a hook
 * made or deleted, in the feed's shape, before the API answers the change (issue 17). 204 once it is
 * in memory and on disk; 400 for a body it cannot read; 503 when it cannot be kept on disk (the
 * control plane logs it; the feed brings it again).
 */
@ApplicationScoped
public class HookMaterialPush {

    /** The path, matched exactly on the raw request URI. */
    public static final String PATH = "/.qaldy/internal/hooks";

    @Inject
    HookFeed feed;

    @Inject
    InternalCall internal;

    @Inject
    Logger log;

    public void receive(HttpServletRequest req, HttpServletResponse res) throws IOException {
        HookMaterial hook = internal.receive(req, res, "a hook push", body -> {
            JsonObject json = InternalCall.readObject(body);
            return json == null ? null : HookMaterial.read(json, problem -> {
            }).orElse(null);
        }, "A hook push is a JSON object with app, hook, sequence and either secrets, job and since, or deleted: true.");
        if (hook == null) {
            return;
        }
        try {
            feed.book().learn(List.of(hook), -1);
        } catch (IOException e) {
            log.log(Level.WARNING, "gate: hooks: cannot keep {0} on disk: {1}", new Object[] {hook, e.toString()});
            Pages.send(req, res, Page.unavailable());
            return;
        }
        InternalCall.done(res);
    }
}
