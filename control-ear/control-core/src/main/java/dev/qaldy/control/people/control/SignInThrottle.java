package dev.qaldy.control.people.control;

import dev.qaldy.control.people.entity.SignInFailure;
import dev.qaldy.control.platform.control.TooManyAttempts;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Slows down guessing: after {@code qaldy.sign-in.max-failures} (5) failed sign-ins for one email
 * from one client address within {@code qaldy.sign-in.failure-window} (15 min), further attempts
 * for that email from that address are refused with 429 until the oldest of them leaves the window;
 * after {@code qaldy.sign-in.max-failures-per-email} (50) failures for the email from all addresses
 * together, every attempt for it is (guessing spread over many addresses). So someone who types
 * wrong passwords for another person's email locks out only themselves, unless they come from many
 * addresses. Failures live in the database, so a restart forgets nothing.
 */
@ApplicationScoped
public class SignInThrottle {

    @PersistenceContext(unitName = "qaldy")
    EntityManager em;

    @Inject
    Clock clock;

    @Inject
    @ConfigProperty(name = "qaldy.sign-in.max-failures", defaultValue = "5")
    int maxFailures;

    @Inject
    @ConfigProperty(name = "qaldy.sign-in.max-failures-per-email", defaultValue = "50")
    int maxFailuresPerEmail;

    @Inject
    @ConfigProperty(name = "qaldy.sign-in.failure-window", defaultValue = "PT15M")
    Duration window;

    /**
     * @param address the client's address ({@link SignInFailure#MAX_ADDRESS_LENGTH} characters at most)
     * @throws TooManyAttempts when {@code email} already has too many recent failures from
     *                         {@code address}, or from all addresses together
     */
    @Transactional
    public void checkAllowed(String email, String address) {
        Instant now = clock.instant();
        long since = now.minus(window).toEpochMilli();
        List<Long> fromHere = em.createNamedQuery(SignInFailure.RECENT_FROM, Long.class)
                .setParameter("email", email)
                .setParameter("address", address)
                .setParameter("since", since)
                .getResultList();
        Long wait = retryAfterSeconds(fromHere, maxFailures, window, now);
        if (wait == null) {
            List<Long> all = em.createNamedQuery(SignInFailure.RECENT, Long.class)
                    .setParameter("email", email)
                    .setParameter("since", since)
                    .getResultList();
            wait = retryAfterSeconds(all, maxFailuresPerEmail, window, now);
        }
        if (wait != null) {
            throw new TooManyAttempts("too many failed sign-ins for this email; try again in " + wait + " s", wait);
        }
    }

    /**
     * The pure rule: given the epoch-ms times of the failures inside the window (oldest first),
     * {@code null} when another attempt is allowed, else the seconds until the oldest counted
     * failure leaves the window.
     */
    static Long retryAfterSeconds(List<Long> recentFailures, int maxFailures, Duration window, Instant now) {
        if (recentFailures.size() < maxFailures) {
            return null;
        }
        long freedAt = recentFailures.get(recentFailures.size() - maxFailures) + window.toMillis();
        return Math.max(1, (freedAt - now.toEpochMilli() + 999) / 1000);
    }

    /**
     * Records a failure in its own transaction, so it stays even though the sign-in is refused. Call it
     * outside any transaction ({@link dev.qaldy.control.people.boundary.Sessions#signIn} does): see there.
     */
    @Transactional(TxType.REQUIRES_NEW)
    public void recordFailure(String email, String address) {
        em.persist(new SignInFailure(email, address, clock.instant()));
    }

    /** Forgets the failures of {@code email} after a successful sign-in. */
    @Transactional
    public void forget(String email) {
        em.createNamedQuery(SignInFailure.FORGET).setParameter("email", email).executeUpdate();
    }

    /**
     * Deletes failures that no longer count (older than the window).
     *
     * @return how many were deleted
     */
    @Transactional
    public int forgetOld() {
        return em.createNamedQuery(SignInFailure.OLDER_THAN)
                .setParameter("until", clock.instant().minus(window).toEpochMilli())
                .executeUpdate();
    }
}
