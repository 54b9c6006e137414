package dev.qaldy.gate.session;

import dev.qaldy.contract.keys.CellPublicKeys;
import dev.qaldy.contract.session.InvalidTokenException;
import dev.qaldy.contract.session.Session;
import dev.qaldy.contract.session.SessionTokens;
import dev.qaldy.gate.console.ConsoleLinks;
import dev.qaldy.gate.platform.CellSecrets;
import dev.qaldy.gate.platform.ControlPlaneUnavailable;
import dev.qaldy.gate.platform.GateConfig;
import dev.qaldy.gate.platform.Page;
import dev.qaldy.gate.platform.Pages;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;

/**
 * Signing in on an app's origin (docs/cell-contract.md): the console sends people back with a
 * one-time ticket, which the gate redeems for the {@code qaldy_session} cookie. No long-lived token
 * ever sits in a URL.
 */
@ApplicationScoped
public class SignIn {

    /** Checked before a call is spent on it. */
    static final Pattern TICKET = Pattern.compile("[A-Za-z0-9._~-]{8,512}");

    @Inject
    GateConfig config;

    @Inject
    CellSecrets secrets;

    @Inject
    TicketClient tickets;

    @Inject
    SignOutClient signOuts;

    @Inject
    SignedOutSessions signedOut;

    @Inject
    Clock clock;

    @Inject
    Logger log;

    /** Browsers go to the console's sign-in for this app, others get 401. */
    public void askToSignIn(String app, HttpServletRequest req, HttpServletResponse res) throws IOException {
        if (!Pages.wantsHtml(req)) {
            Pages.send(req, res, Page.unauthorized());
            return;
        }
        String query = req.getQueryString();
        String back = ReturnPath.sanitize(req.getRequestURI() + (query == null ? "" : "?" + query));
        redirect(res, ConsoleLinks.open(config.publicUrl(), app, back));
    }

    /** {@code GET /.qaldy/ticket?t=…&return=/path}. */
    public void redeemTicket(String app, HttpServletRequest req, HttpServletResponse res) throws IOException {
        if (!"GET".equals(req.getMethod())) {
            Pages.send(req, res, Page.methodNotAllowed());
            return;
        }
        String ticket = req.getParameter("t");
        String back = ReturnPath.sanitize(req.getParameter("return"));
        Page expired = Page.badTicket().withLink(ConsoleLinks.open(config.publicUrl(), app, back), "Open " + app + " again");
        if (ticket == null || !TICKET.matcher(ticket).matches()) {
            Pages.send(req, res, expired);
            return;
        }
        Optional<CellPublicKeys> key = secrets.publicKeys();
        if (key.isEmpty()) {
            log.log(Level.WARNING, "gate: cannot sign anyone in to {0}: the cell public key is not loaded", app);
            Pages.send(req, res, Page.unavailable());
            return;
        }
        Optional<RedeemedTicket> redeemed;
        try {
            redeemed = tickets.redeem(ticket, app);
        } catch (ControlPlaneUnavailable e) {
            log.log(Level.INFO, "gate: sign-in to {0} waits for the control plane: {1}", new Object[] {app, e.getMessage()});
            Pages.send(req, res, Page.unavailable());
            return;
        } catch (RuntimeException e) {
            log.log(Level.INFO, "gate: sign-in to {0} failed: {1}", new Object[] {app, e.toString()});
            Pages.send(req, res, Page.unavailable());
            return;
        }
        if (redeemed.isEmpty()) {
            log.log(Level.FINE, "gate: the control plane refused a ticket for {0}", app);
            Pages.send(req, res, expired);
            return;
        }
        Session session;
        try {
            session = SessionTokens.verify(redeemed.get().token(), key.get(), clock);
        } catch (InvalidTokenException e) {
            log.log(Level.WARNING, "gate: the control plane issued a session this gate cannot verify ({0}); "
                    + "do both read the same cell key?", e.getMessage());
            Pages.send(req, res, Page.unavailable());
            return;
        }
        Instant until = session.expiresAt().isBefore(redeemed.get().expiresAt())
                ? session.expiresAt() : redeemed.get().expiresAt();
        long maxAge = Duration.between(clock.instant(), until).getSeconds();
        res.addHeader("Set-Cookie", SessionCookie.set(redeemed.get().token(), maxAge, config.secure()));
        redirect(res, back);
        log.log(Level.FINE, "gate: person {0} signed in to {1}", new Object[] {session.personId(), app});
    }

    /** {@code everywhere}, or {@code this-gate} when the control plane could not be told. */
    public static final String SIGNED_OUT_HEADER = "X-Qaldy-Signed-Out";

    /**
     * {@code /.qaldy/signout}: clears the cookie, this gate refuses the token at once, and the control
     * plane is told, which tells every gate ({@link SignOutClient}). Only a same-origin POST
     * ({@link SameOrigin}) signs out; another method is 405, a cross-site POST 403 (issue 16).
     */
    public void signOut(String app, HttpServletRequest req, HttpServletResponse res) throws IOException {
        if (!"POST".equals(req.getMethod())) {
            res.setHeader("Allow", "POST");
            Pages.send(req, res, Page.signOutNeedsPost(app));
            return;
        }
        if (!SameOrigin.allows(req.getHeader("Sec-Fetch-Site"), req.getHeader("Origin"), req.getHeader("Host"))) {
            log.log(Level.FINE, "gate: refused a cross-site sign-out of {0} (Origin {1}, Sec-Fetch-Site {2})",
                    new Object[] {app, req.getHeader("Origin"), req.getHeader("Sec-Fetch-Site")});
            Pages.send(req, res, Page.crossSiteSignOut(app));
            return;
        }
        res.addHeader("Set-Cookie", SessionCookie.clear(config.secure()));
        boolean everywhere = endSessions(app, req);
        res.setHeader(SIGNED_OUT_HEADER, everywhere ? "everywhere" : "this-gate");
        if (Pages.wantsHtml(req)) {
            Page page = everywhere ? Page.signedOut(app) : Page.signedOutHereOnly(app);
            Pages.send(req, res, page.withLink(ConsoleLinks.home(config.publicUrl()), "Go to the console"));
        } else {
            Pages.securityHeaders(res);
            res.setHeader("Cache-Control", "no-store");
            res.setStatus(HttpServletResponse.SC_NO_CONTENT);
        }
    }

    /** At most {@link SessionReader#MAX_COOKIES_TRIED} cookies; true unless the control plane could not be told. */
    private boolean endSessions(String app, HttpServletRequest req) {
        Optional<CellPublicKeys> key = secrets.publicKeys();
        if (key.isEmpty()) {
            return false;
        }
        List<String> tokens = SessionCookie.values(Collections.list(req.getHeaders("Cookie")), SessionCookie.NAME);
        boolean everywhere = true;
        for (String token : tokens.subList(0, Math.min(tokens.size(), SessionReader.MAX_COOKIES_TRIED))) {
            Session session;
            try {
                session = SessionTokens.verify(token, key.get(), clock);
            } catch (InvalidTokenException e) {
                continue; // expired or not ours: nothing to sign out
            }
            if (!session.opens(app)) {
                continue;
            }
            signedOut.add(session.tokenId(), session.expiresAt()); // refused here at once, API or not
            try {
                signOuts.signOut(token);
                log.log(Level.FINE, "gate: person {0} signed out on {1}", new Object[] {session.personId(), app});
            } catch (ControlPlaneUnavailable | RuntimeException e) {
                everywhere = false;
                log.log(Level.INFO, "gate: signed out of {0} on this gate only; the control plane was not told: {1}",
                        new Object[] {app, e.toString()});
            }
        }
        return everywhere;
    }

    private static void redirect(HttpServletResponse res, String location) {
        res.setStatus(HttpServletResponse.SC_FOUND);
        res.setHeader("Location", location);
        res.setHeader("Cache-Control", "no-store");
        res.setHeader("Referrer-Policy", "no-referrer");
    }
}
