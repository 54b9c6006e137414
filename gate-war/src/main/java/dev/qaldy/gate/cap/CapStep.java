package dev.qaldy.gate.cap;

import dev.qaldy.contract.cap.CapKeeper;
import dev.qaldy.contract.cap.CapKeeper.Verdict;
import dev.qaldy.contract.cap.CapSync;
import dev.qaldy.gate.platform.Page;
import dev.qaldy.gate.platform.Pages;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The cap step, after access (seed: "over the cap the app is asleep", with or without the API):
 * {@link CapKeeper} decides from the last verified state plus the requests counted here. Asleep is
 * a 503 {@code asleep} problem with Retry-After until the next period; an account with no state is
 * fetched once, bounded, else the outage 503. {@value #HEADER}: {@code awake}, {@code asleep} or
 * {@code unknown}.
 */
@ApplicationScoped
public class CapStep {

    /** Read by the end-to-end tests. */
    public static final String HEADER = "X-Qaldy-Cap";

    @Inject
    CapMemory memory;

    @Inject
    Logger log;

    /** True when it may be forwarded (and was counted); otherwise the page is sent. */
    public boolean admit(String app, long accountId, HttpServletRequest req, HttpServletResponse res) throws IOException {
        Verdict verdict;
        try {
            verdict = admit(accountId, app);
        } catch (RuntimeException e) {
            log.log(Level.WARNING, "gate: the cap step failed for " + app + "; answering 503", e);
            verdict = new Verdict.Unknown(accountId);
        }
        if (verdict instanceof Verdict.Awake) {
            res.setHeader(HEADER, "awake");
            return true;
        }
        if (verdict instanceof Verdict.Asleep asleep) {
            res.setHeader(HEADER, "asleep");
            res.setHeader("Retry-After", Long.toString(Math.max(1, asleep.retryAfter().toSeconds())));
            Pages.send(req, res, Page.asleep(app, asleep.state().periodEnd()));
            return false;
        }
        log.log(Level.FINE, "gate: no cap state for account {0} of {1}: 503", new Object[] {accountId, app});
        res.setHeader(HEADER, "unknown");
        Pages.send(req, res, Page.unavailable());
        return false;
    }

    /** Counted when awake; an unknown account's state is fetched first. */
    Verdict admit(long accountId, String app) {
        Optional<CapKeeper> keeper = memory.keeper();
        if (keeper.isEmpty() || accountId <= 0) {
            return new Verdict.Unknown(accountId);
        }
        Verdict verdict = keeper.get().admit(accountId, app, 1);
        if (verdict instanceof Verdict.Unknown) {
            Optional<CapSync> sync = memory.ready();
            if (sync.isPresent() && sync.get().fetch(accountId)) {
                verdict = keeper.get().admit(accountId, app, 1);
            }
        }
        return verdict;
    }
}
