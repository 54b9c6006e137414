package dev.qaldy.gate.routing;

import dev.qaldy.contract.health.UpstreamHealth;
import dev.qaldy.contract.keys.CellPublicKeys;
import dev.qaldy.contract.keys.ServiceDirection;
import dev.qaldy.contract.keys.ServiceKeyring;
import dev.qaldy.contract.session.Session;
import dev.qaldy.gate.access.AccessCheck;
import dev.qaldy.gate.access.AccessDecision;
import dev.qaldy.gate.access.SharingVersionPush;
import dev.qaldy.gate.cap.CapEndpoint;
import dev.qaldy.gate.cap.CapStep;
import dev.qaldy.gate.console.ConsoleFiles;
import dev.qaldy.gate.console.ConsoleLinks;
import dev.qaldy.gate.hooks.HookMaterialPush;
import dev.qaldy.gate.platform.CellSecrets;
import dev.qaldy.gate.platform.ControlPlane;
import dev.qaldy.gate.platform.ControlPlaneHealth;
import dev.qaldy.gate.platform.GateConfig;
import dev.qaldy.gate.platform.MalformedRequests;
import dev.qaldy.gate.platform.Page;
import dev.qaldy.gate.platform.Pages;
import dev.qaldy.gate.proxy.ProxyHeaders;
import dev.qaldy.gate.proxy.UpstreamProxy;
import dev.qaldy.gate.session.ConsoleCall;
import dev.qaldy.gate.session.SessionCheck;
import dev.qaldy.gate.session.SessionReader;
import dev.qaldy.gate.session.SignIn;
import dev.qaldy.gate.session.SignedOutSessionPush;
import dev.qaldy.gate.session.SignedOutSessions;
import dev.qaldy.gate.session.SignedOutSessionsLoader;
import dev.qaldy.gate.session.VerifiedSessions;
import dev.qaldy.gate.shield.Shield;
import dev.qaldy.gate.shield.ShieldRequest;
import dev.qaldy.gate.shield.ShieldTarget;
import dev.qaldy.gate.shield.ShieldVerdict;
import dev.qaldy.gate.sites.PublicSites;
import dev.qaldy.gate.sites.SiteDecision;
import jakarta.inject.Inject;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Clock;
import java.util.Collections;
import java.util.Enumeration;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The gate's hot path, in explicit steps: (1) route by Host and path → (2) shield, local only → public
 * site ({@link PublicSites}; an app the gate could not learn about is never public) → (3) session,
 * verified locally, a signed-out one being none ({@link SignedOutSessions}) → (4) access (copy, else
 * the control plane, else the remembered copy; fail closed) → (5) cap ({@code X-Qaldy-Cap}) →
 * forward, streamed, with {@code X-Qaldy-Access}.
 *
 * <p>Pushes and cap-state calls are answered only on the internal listener, for any Host; on the
 * public one they are 404 ({@link ListenerRoute}; issue 16). Health answers for any Host (probes may
 * use an IP); metrics only with the metrics credential. While the control plane is failing, signing
 * in is paused with a 503 at once ({@link #signInPaused}; issue 20). Upstream waits go to
 * {@code Server-Timing} ({@link UpstreamHealth.Ledger}).
 */
@WebFilter(filterName = "gate", urlPatterns = "/*", dispatcherTypes = DispatcherType.REQUEST)
public class GateFilter extends HttpFilter {

    private static final long serialVersionUID = 1L;

    @Inject
    GateConfig config;

    @Inject
    CellSecrets secrets;

    @Inject
    SignIn signIn;

    @Inject
    VerifiedSessions sessions;

    @Inject
    SignedOutSessions signedOut;

    @Inject
    SignedOutSessionsLoader signOutsLoader;

    @Inject
    SignedOutSessionPush signOutPush;

    @Inject
    AccessCheck access;

    @Inject
    SharingVersionPush push;

    @Inject
    Shield shield;

    @Inject
    CapStep cap;

    @Inject
    PublicSites sites;

    @Inject
    CapEndpoint capStates;

    @Inject
    HookMaterialPush hookPush;

    @Inject
    UpstreamProxy proxy;

    @Inject
    ControlPlaneHealth controlPlane;

    @Inject
    Clock clock;

    @Inject
    Logger log;

    private HostRouter hosts;

    @Override
    public void init() {
        hosts = new HostRouter(config.publicHost(), config.baseDomain());
    }

    @Override
    protected void doFilter(HttpServletRequest req, HttpServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        try (UpstreamHealth.Ledger ledger = UpstreamHealth.Ledger.open()) {
            if (!allowedMethod(req.getMethod())) {
                Pages.send(req, res, Page.methodNotAllowed());
                return;
            }
            if (MalformedRequests.MALFORMED_PATH.equals(req.getRequestURI())) {
                Pages.send(req, res, Page.badPath()); // a path the server could not decode (see PayaraHostGuard)
                return;
            }
            switch (ListenerRoute.of(onInternalListener(req), req.getRequestURI())) {
                case SHARING_PUSH -> push.receive(req, res); // the control plane calls every gate by address: any Host
                case SIGN_OUT_PUSH -> signOutPush.receive(req, res);
                case CAP_STATES -> capStates.receive(req, res);
                case HOOK_PUSH -> hookPush.receive(req, res);
                case NOT_HERE -> Pages.send(req, res, Page.noRoute(route(req) instanceof HostRoute.App ? "/" : home()));
                case PUBLIC -> publicListener(route(req), req, res, chain);
                default -> throw new IllegalStateException("no route for " + req.getRequestURI());
            }
        } catch (IOException e) {
            log.log(Level.FINE, "gate: I/O ended {0} {1}: {2}", new Object[] {req.getMethod(), req.getRequestURI(), e.toString()});
        } catch (ServletException | RuntimeException e) {
            String reference = UUID.randomUUID().toString().substring(0, 8);
            log.log(Level.SEVERE, "gate: unexpected error on " + req.getMethod() + " " + req.getRequestURI()
                    + ", reference " + reference, e);
            Pages.send(req, res, Page.internalError(reference));
        }
    }

    /** The internal listener ({@code qaldy.gate.internal-port}) is bound to the cell's internal address only. */
    private boolean onInternalListener(HttpServletRequest req) {
        return req.getLocalPort() == config.internalPort();
    }

    private void publicListener(HostRoute route, HttpServletRequest req, HttpServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        if (route instanceof HostRoute.App app) {
            if (shielded(new ShieldTarget.App(app.name()), req, res)) {
                appOrigin(app.name(), req, res);
            }
        } else if (route instanceof HostRoute.Public) {
            publicOrigin(req, res, chain);
        } else if (PublicPath.of(req.getRequestURI()) == PublicPath.HEALTH) {
            chain.doFilter(req, res); // probes may use an IP; health is local, never forwarded
        } else if (PublicPath.of(req.getRequestURI()) == PublicPath.METRICS) {
            metrics(req, res, chain);
        } else {
            log.log(Level.FINE, "gate: refused Host {0}: {1}", new Object[] {req.getHeader("Host"), ((HostRoute.Bad) route).reason()});
            Pages.send(req, res, Page.badHost());
        }
    }

    /** Step 1; more than one Host header is refused. */
    HostRoute route(HttpServletRequest req) {
        Enumeration<String> values = req.getHeaders("Host");
        if (!values.hasMoreElements()) {
            return new HostRoute.Bad("0 Host headers");
        }
        String host = values.nextElement();
        if (values.hasMoreElements()) {
            return new HostRoute.Bad("more than one Host header");
        }
        return hosts.route(host);
    }

    private void publicOrigin(HttpServletRequest req, HttpServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        switch (PublicPath.of(req.getRequestURI())) {
            case ROOT -> ConsoleFiles.redirectHome(res);
            case CONSOLE -> ConsoleFiles.serve(req, res, chain);
            case HEALTH -> chain.doFilter(req, res);
            case METRICS -> metrics(req, res, chain);
            case API -> {
                if (shielded(new ShieldTarget.Api(), req, res)) {
                    if (isSignIn(req.getMethod(), req.getRequestURI()) && controlPlane.view().failing()) {
                        Pages.send(req, res, Page.unavailable()); // the console's sign-in: paused, said at once
                    } else {
                        api(req, res);
                    }
                }
            }
            case HOOKS -> {
                if (shielded(new ShieldTarget.Api(), req, res)) {
                    proxy.hook(req, res); // webhooks: bounded, 5 s; checked and queued at the edge while the API is down
                }
            }
            case INTERNAL, NO_ROUTE -> Pages.send(req, res, Page.noRoute(home()));
            case BAD_PATH -> Pages.send(req, res, Page.badPath());
            default -> Pages.send(req, res, Page.noRoute(home()));
        }
    }

    /**
     * The console's session cookie goes on as {@code Authorization: Bearer}; a change carrying it
     * without the console's proof is refused with 403 ({@link ConsoleCall}).
     */
    private void api(HttpServletRequest req, HttpServletResponse res) throws IOException {
        ConsoleCall console = ConsoleCall.of(new ConsoleCall.Request(req.getMethod(), req.getRequestURI(),
                req.getHeader("Authorization"), Collections.list(req.getHeaders("Cookie")), req.getHeader(ConsoleCall.CSRF_HEADER),
                req.getHeader(ConsoleCall.SESSION_HEADER), req.getHeader("Sec-Fetch-Site"), req.getHeader("Origin"),
                req.getHeader("Host")), config.secure());
        if (console instanceof ConsoleCall.Refused refused) {
            log.log(Level.FINE, "gate: refused {0} {1}: {2} (Origin {3}, Sec-Fetch-Site {4})", new Object[] {req.getMethod(),
                    req.getRequestURI(), refused.reason(), req.getHeader("Origin"), req.getHeader("Sec-Fetch-Site")});
            Pages.send(req, res, Page.crossSiteChange());
            return;
        }
        proxy.toControl(req, res, console);
    }

    /**
     * Step 2; true when the request may go on, with the client address kept for {@code X-Forwarded-For}.
     * A refusal carries {@code X-Qaldy-Shield} and, for a 429, {@code Retry-After} and {@code RateLimit-*}.
     */
    private boolean shielded(ShieldTarget target, HttpServletRequest req, HttpServletResponse res) throws IOException {
        ShieldVerdict verdict = shield.check(target, ShieldRequest.of(req));
        if (verdict instanceof ShieldVerdict.Pass pass) {
            req.setAttribute(ProxyHeaders.CLIENT_ADDRESS, pass.clientAddress());
            return true;
        }
        ShieldVerdict.Block block = (ShieldVerdict.Block) verdict;
        block.headers().forEach(res::setHeader);
        Pages.send(req, res, block.page());
        return false;
    }

    private void appOrigin(String app, HttpServletRequest req, HttpServletResponse res) throws IOException {
        switch (AppPath.of(req.getRequestURI())) {
            case TICKET -> signIn.redeemTicket(app, req, res);
            case SIGNOUT -> signIn.signOut(app, req, res);
            case APP -> appTraffic(app, req, res);
            case DATA -> appData(app, req, res);
            default -> Pages.send(req, res, Page.noRoute("/"));
        }
    }

    /** {@code /.qaldy/data/…}: session and access as for app traffic, then to the control plane, never the runtime host. */
    private void appData(String app, HttpServletRequest req, HttpServletResponse res) throws IOException {
        Optional<CellPublicKeys> key = secrets.publicKeys();
        SessionCheck check = key.isEmpty() ? null : session(req, key.get(), app);
        if (!(check instanceof SessionCheck.Valid valid)) {
            res.setHeader("WWW-Authenticate", "Bearer realm=\"qaldy\"");
            Pages.send(req, res, key.isEmpty() ? Page.unavailable() : Page.unauthorized());
            return;
        }
        if (!signOutsKnown(req, res)) {
            return;
        }
        AccessDecision decision = access.check(app, valid.session());
        res.setHeader(AccessDecision.HEADER, decision.header());
        if (decision.allowed()) {
            proxy.data(app, valid.session(), req, res);
            return;
        }
        Pages.send(req, res, refusal(decision, app, valid.session(), home()));
    }

    private void appTraffic(String app, HttpServletRequest req, HttpServletResponse res) throws IOException {
        Optional<CellPublicKeys> key = secrets.publicKeys();
        if (key.isEmpty()) {
            res.setHeader(AccessDecision.HEADER, "refused");
            Pages.send(req, res, Page.unavailable());
            return;
        }
        SiteDecision site = sites.check(app);
        if (site.isPublic()) {
            publicSite(app, site, req, res);
            return;
        }
        SessionCheck check = session(req, key.get(), app);
        if (!(check instanceof SessionCheck.Valid valid)) {
            if (check instanceof SessionCheck.Invalid invalid) {
                log.log(Level.FINE, "gate: refused a session for {0}: {1}", new Object[] {app, invalid.reason()});
            }
            Page paused = signInPaused(site.unknown(), controlPlane.view().failing(), Pages.wantsHtml(req));
            if (paused != null) {
                res.setHeader(AccessDecision.HEADER, "refused");
                Pages.send(req, res, paused);
                return;
            }
            signIn.askToSignIn(app, req, res);
            return;
        }
        if (!signOutsKnown(req, res)) {
            return;
        }
        Session session = valid.session();
        AccessDecision decision = access.check(app, session);
        res.setHeader(AccessDecision.HEADER, decision.header());
        if (decision.allowed()) {
            if (cap.admit(app, decision.accountId(), req, res)) { // step 5: over the cap the app is asleep
                proxy.toRuntime(app, session, req, res);
            }
            return;
        }
        Pages.send(req, res, refusal(decision, app, session, home()));
    }

    /** No session or access step, the cap still applies; forwarded without a person (static files only). */
    private void publicSite(String app, SiteDecision site, HttpServletRequest req, HttpServletResponse res)
            throws IOException {
        res.setHeader(AccessDecision.HEADER, "public");
        res.setHeader(SiteDecision.HEADER, site.source().header());
        if (cap.admit(app, site.accountId(), req, res)) {
            proxy.toRuntime(app, null, req, res);
        }
    }

    /** {@code /metrics} only with the metrics-to-gate credential (Bearer or {@code X-Qaldy-Service-Token}); else 404. */
    private void metrics(HttpServletRequest req, HttpServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        String bearer = req.getHeader("Authorization");
        boolean trusted;
        try {
            String presented = bearer != null && bearer.regionMatches(true, 0, "Bearer ", 0, 7) ? bearer.substring(7)
                    : req.getHeader(ControlPlane.SERVICE_TOKEN_HEADER);
            trusted = secrets.check(presented, ServiceDirection.METRICS_TO_GATE) == ServiceKeyring.Verdict.ACCEPTED;
        } catch (IllegalStateException e) {
            trusted = false;
        }
        if (trusted) {
            res.setHeader("Cache-Control", "no-store");
            chain.doFilter(req, res);
        } else {
            Pages.send(req, res, Page.noRoute(home()));
        }
    }

    /** Step 3: {@code Authorization: Bearer} or the {@code qaldy_session} cookie. */
    private SessionCheck session(HttpServletRequest req, CellPublicKeys key, String app) {
        return new SessionReader(key, clock, sessions, signedOut).read(req.getHeader("Authorization"), Collections.list(req.getHeaders("Cookie")), app);
    }

    /**
     * Until the sign-outs made before this gate started are loaded
     * ({@link SignedOutSessionsLoader#loadedOrTryNow()}), a session alone lets no one in: 503.
     */
    private boolean signOutsKnown(HttpServletRequest req, HttpServletResponse res) throws IOException {
        if (signOutsLoader.loadedOrTryNow()) {
            return true;
        }
        res.setHeader(AccessDecision.HEADER, "refused");
        Pages.send(req, res, Page.unavailable());
        return false;
    }

    private String home() {
        return ConsoleLinks.home(config.publicUrl());
    }

    /** Exhaustive, so a new verdict cannot fall through to a forward. */
    static Page refusal(AccessDecision decision, String app, Session session, String home) {
        return switch (decision.verdict()) {
            case DENY -> Page.forbidden(session.email());
            case UNKNOWN_APP -> Page.unknownApp(app, home);
            case UNAVAILABLE, ALLOW -> decision.source() == AccessDecision.Source.OUT_OF_TOUCH ? Page.accessUnconfirmed()
                    : Page.unavailable();
        };
    }

    /**
     * Without a valid session: the 503 page when signing in cannot work now, else null (ask to sign in).
     * It cannot while the gate cannot tell whether the app is public, or, for a browser, while the
     * control plane is failing (a sign-in could only wait); other clients keep their 401.
     */
    static Page signInPaused(boolean cannotTell, boolean failing, boolean html) {
        return cannotTell || failing && html ? Page.unavailable() : null;
    }

    static boolean isSignIn(String method, String uri) {
        return "POST".equals(method) && "/api/v1/sessions".equals(uri);
    }

    static boolean allowedMethod(String method) {
        return !"TRACE".equalsIgnoreCase(method) && !"CONNECT".equalsIgnoreCase(method);
    }
}
