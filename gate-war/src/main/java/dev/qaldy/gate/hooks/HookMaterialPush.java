package dev.qaldy.gate.hooks;

import dev.qaldy.gate.platform.CellSecrets;
import dev.qaldy.gate.platform.InternalCall;
import dev.qaldy.gate.platform.Page;
import dev.qaldy.gate.platform.Pages;
import dev.qaldy.gate.platform.RefusalLog;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
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
    CellSecrets secrets;

    @Inject
    RefusalLog refusals;

    @Inject
    Logger log;

    public void receive(HttpServletRequest req, HttpServletResponse res) throws IOException {
        if (!InternalCall.admit(req, res, secrets, refusals, log, "a hook push")) {
            return;
        }
        JsonObject json = InternalCall.readObject(req.getInputStream());
        Optional<LearnedHook> hook = json == null ? Optional.empty() : LearnedHook.read(json, problem -> {
        });
        if (hook.isEmpty()) {
            Pages.send(req, res, Page.badRequest("A hook push is a JSON object with app, hook, sequence and either secrets, job "
                    + "and since, or deleted: true."));
            return;
        }
        try {
            feed.book().learn(List.of(hook.get()), -1);
        } catch (IOException e) {
            log.log(Level.WARNING, "gate: hooks: cannot keep {0} on disk: {1}", new Object[] {hook.get(), e.toString()});
            Pages.send(req, res, Page.unavailable());
            return;
        }
        InternalCall.done(res);
    }
}
