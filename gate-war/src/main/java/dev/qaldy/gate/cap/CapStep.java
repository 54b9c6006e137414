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
 * The spending-cap step of the hot path, after access and before forward (seed: "over the cap the
 * app is asleep", with or without the API): the account's last verified cap state plus the
 * requests counted here since decide. Under the cap the request is counted and goes on; at the
 * cap the app is asleep (503, problem type {@code urn:qaldy:problem:asleep}, Retry-After until
 * the next period); an account whose state this gate never received is fetched once, bounded,
 * and while that fails the request gets the outage page (503): the gate cannot know the cap.
 * {@code X-Qaldy-Cap} tells which ({@code awake}, {@code asleep}, {@code unknown}).
 */
@ApplicationScoped
public class CapStep {

    /** The response header that tells the cap's verdict (read by the end-to-end tests). */
    public static final String HEADER = "X-Qaldy-Cap";

    @Inject
    CapMemory memory;

    @Inject
    Logger log;

    /**
     * Decides for one request to {@code app}, owned by {@code accountId}: true when it may be
     * forwarded (and was counted); otherwise the page is sent.
     */
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

    /**
     * The verdict for one request of {@code app}, counted when awake; the account's state is
     * fetched first when this gate never received it.
     */
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
