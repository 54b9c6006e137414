package dev.qaldy.control.people.control;

import dev.qaldy.contract.session.InvalidTokenException;
import dev.qaldy.contract.session.Session;
import dev.qaldy.contract.session.SessionTokens;
import dev.qaldy.control.people.entity.Person;
import dev.qaldy.control.people.entity.SessionSignedOut;
import dev.qaldy.control.people.entity.SignOutPage;
import dev.qaldy.control.people.entity.SignedOutSession;
import dev.qaldy.control.people.entity.SignedSession;
import dev.qaldy.control.platform.control.CellKeyring;
import dev.qaldy.control.platform.control.InvalidInput;
import dev.qaldy.control.platform.control.NotSignedIn;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Signs session tokens (ES256, lifetime {@code qaldy.sessions.ttl}, default 12 h) and verifies the
 * ones the API receives, refusing those their holder signed out of.
 */
@ApplicationScoped
public class SessionIssuer {

    @PersistenceContext(unitName = "qaldy")
    EntityManager em;

    @Inject
    CellKeyring keys;

    @Inject
    Clock clock;

    @Inject
    Logger log;

    @Inject
    Event<SessionSignedOut> signedOut;

    @Inject
    @ConfigProperty(name = "qaldy.sessions.ttl", defaultValue = "PT12H")
    Duration ttl;

    /** A new signed session of the console and the API for {@code person}, issued now (whole seconds, as the token stores them). */
    public SignedSession issue(Person person) {
        return issue(person, null);
    }

    /**
     * A new signed session for {@code person} on {@code app}'s origin only (audience
     * {@code app:<name>}): it opens that app at the gates, and the API refuses it, so the cookie of
     * one app's origin is never a key to the person's account.
     */
    public SignedSession issueForApp(Person person, String app) {
        return issue(person, SessionTokens.appAudience(app));
    }

    private SignedSession issue(Person person, String audience) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        Session session = new Session(person.id(), person.email(), UUID.randomUUID().toString(), now, now.plus(ttl), audience);
        return new SignedSession(SessionTokens.sign(session, keys.signingKey()), session.expiresAt());
    }

    /**
     * Verifies a bearer token.
     *
     * @throws NotSignedIn for a forged, foreign, expired, unreadable or signed-out token, or one
     *                     made on an app's origin (it opens that app only)
     */
    @Transactional
    public Session verify(String token) {
        Session session;
        try {
            session = SessionTokens.verify(token, keys.publicKeys(), clock);
        } catch (InvalidTokenException e) {
            log.log(Level.FINE, "refused a session token: {0}", e.getMessage());
            throw new NotSignedIn("the session token is invalid or expired; sign in again");
        }
        if (session.audience() != null) {
            throw new NotSignedIn("this session opens one app only, not the API; sign in to the console");
        }
        long signedOut = em.createNamedQuery(SignedOutSession.COUNT_BY_TOKEN, Long.class)
                .setParameter("tokenId", session.tokenId()).getSingleResult();
        if (signedOut > 0) {
            throw new NotSignedIn("this session was signed out; sign in again");
        }
        return session;
    }

    /**
     * Marks the session's token as signed out until its expiry, and (after the commit, before the
     * caller answers) tells every gate to refuse it ({@link SignOutPush}). Signing a token out again
     * keeps the one mark and pushes again, so a gate that missed the first push learns it.
     */
    @Transactional
    public void signOut(Session session) {
        long marked = em.createNamedQuery(SignedOutSession.COUNT_BY_TOKEN, Long.class)
                .setParameter("tokenId", session.tokenId()).getSingleResult();
        if (marked == 0) {
            em.persist(new SignedOutSession(session.tokenId(), session.expiresAt()));
        }
        signedOut.fire(new SessionSignedOut(session.tokenId(), session.expiresAt()));
    }

    /**
     * Signs out the session of {@code token}, one of the console and the API or one made on an
     * app's origin (the gate passes on the cookie of {@code /.qaldy/signout}).
     *
     * @return the session signed out
     * @throws InvalidInput for a forged, foreign, expired or unreadable token (nothing to sign out)
     */
    @Transactional
    public Session signOutToken(String token) {
        Session session;
        try {
            session = SessionTokens.verify(token, keys.publicKeys(), clock);
        } catch (InvalidTokenException e) {
            throw new InvalidInput("not a valid, unexpired session token of this cell; nothing to sign out");
        }
        signOut(session);
        return session;
    }

    /**
     * Deletes sign-out marks of tokens that have expired anyway.
     *
     * @return how many were deleted
     */
    @Transactional
    public int forgetExpiredSignOuts() {
        return em.createNamedQuery(SignedOutSession.EXPIRED)
                .setParameter("now", clock.instant().toEpochMilli()).executeUpdate();
    }

    /**
     * The unexpired sign-out marks after position {@code after}, in position order, at most
     * {@code limit} (1..{@value SignOutPage#MAX}): what a starting gate loads into its list.
     */
    @Transactional
    public SignOutPage unexpiredSignOuts(long after, int limit) {
        int bounded = SignOutPage.limit(limit);
        List<SignedOutSession> rows = em.createNamedQuery(SignedOutSession.UNEXPIRED_AFTER, SignedOutSession.class)
                .setParameter("after", after).setParameter("now", clock.instant().toEpochMilli())
                .setMaxResults(bounded).getResultList();
        return SignOutPage.of(rows, after, bounded);
    }
}
