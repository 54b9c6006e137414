package dev.qaldy.gate.hooks;

import dev.qaldy.contract.http.JsonAnswer;
import dev.qaldy.contract.keys.CellPublicKeys;
import dev.qaldy.gate.platform.CellSecrets;
import dev.qaldy.gate.platform.GateConfig;
import dev.qaldy.gate.platform.Page;
import dev.qaldy.gate.platform.Pages;
import dev.qaldy.gate.session.ConsoleCookie;
import dev.qaldy.gate.session.SessionCheck;
import dev.qaldy.gate.session.SessionReader;
import dev.qaldy.gate.session.SignedOutSessions;
import dev.qaldy.gate.session.SignedOutSessionsLoader;
import dev.qaldy.gate.session.VerifiedSessions;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Clock;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * {@code GET /console/edge-hooks.json?app=<app>}: the webhook deliveries of the app waiting in this gate's
 * queue (issue 17: "each hook shows how many deliveries wait at the edge and since when"), answered by the
 * gate itself, so the console shows them while the control plane is down, which is when they wait.
 * {@code 200 {"app","hooks":[{"hook","waiting","oldestReceivedAt"}]}}, hooks by name, only those with
 * deliveries waiting. Only the app's owner (as the hooks' material says) sees them; anyone else signed in
 * gets an empty list, so the answer never tells whether an app exists. Not signed in (the console's cookie
 * or {@code Authorization: Bearer}) → 401; sign-outs not loaded yet → 503. Each gate counts its own queue.
 */
@WebServlet(urlPatterns = EdgeWaitingServlet.PATH)
public class EdgeWaitingServlet extends HttpServlet {

    static final String PATH = "/console/edge-hooks.json";
    /** An app name: a DNS label (the control plane's AppName rule). */
    static final Pattern APP = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");
    private static final long serialVersionUID = 1L;

    @Inject
    HookFeed feed;

    @Inject
    EdgeHooks edge;

    @Inject
    CellSecrets secrets;

    @Inject
    GateConfig config;

    @Inject
    VerifiedSessions sessions;

    @Inject
    SignedOutSessions signedOut;

    @Inject
    SignedOutSessionsLoader signOutsLoader;

    @Inject
    Clock clock;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
        String app = req.getParameter("app");
        if (app == null || !APP.matcher(app).matches()) {
            Pages.sendProblem(res, Page.badRequest("Name an app, e.g. /console/edge-hooks.json?app=guestbook, then ask again."));
            return;
        }
        Optional<CellPublicKeys> keys = secrets.publicKeys();
        if (keys.isEmpty() || !signOutsLoader.loadedOrTryNow()) {
            Pages.sendProblem(res, new Page(503, "temporarily-unavailable", "Temporarily unavailable",
                    "This gate cannot check sessions yet; ask again in a few seconds.", null, null));
            return;
        }
        String authorization = req.getHeader("Authorization");
        if (authorization == null) {
            String token = ConsoleCookie.token(Collections.list(req.getHeaders("Cookie")), config.secure());
            authorization = token == null ? null : "Bearer " + token;
        }
        SessionCheck check = new SessionReader(keys.get(), clock, sessions, signedOut).read(authorization, List.of());
        if (!(check instanceof SessionCheck.Valid valid)) {
            Pages.sendProblem(res, new Page(401, "unauthorized", "Sign in to continue",
                    "Sign in to the console, then open the app's Webhooks tab again.", null, null));
            return;
        }
        OptionalLong owner = feed.book().ownerOf(app);
        JsonArrayBuilder hooks = Json.createArrayBuilder();
        if (owner.isPresent() && owner.getAsLong() == valid.session().personId()) {
            for (EdgeQueue.Waiting w : edge.queue().waiting(app)) {
                hooks.add(Json.createObjectBuilder().add("hook", w.hook()).add("waiting", w.count())
                        .add("oldestReceivedAt", w.oldestReceived().toString()));
            }
        }
        Pages.securityHeaders(res);
        JsonAnswer.write(res, HttpServletResponse.SC_OK, Json.createObjectBuilder().add("app", app).add("hooks", hooks).build().toString());
    }
}
