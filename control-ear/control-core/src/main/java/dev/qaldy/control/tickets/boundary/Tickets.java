package dev.qaldy.control.tickets.boundary;

import dev.qaldy.contract.session.Session;
import dev.qaldy.control.apps.control.AppGuard;
import dev.qaldy.control.people.control.SessionIssuer;
import dev.qaldy.control.people.entity.Person;
import dev.qaldy.control.people.entity.SignedSession;
import dev.qaldy.control.platform.control.NotFound;
import dev.qaldy.control.platform.control.PublicUrls;
import dev.qaldy.control.tickets.control.TicketCodes;
import dev.qaldy.control.tickets.entity.Ticket;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * One-time sign-in tickets that carry a signed-in person to an app's own origin without a
 * long-lived token in a URL: valid {@code qaldy.tickets.ttl} (60 s), redeemable once, by the gate.
 */
@ApplicationScoped
@Transactional
public class Tickets {

    /**
     * A new ticket as handed to the console.
     *
     * @param ticket the ticket itself (shown once, never stored)
     * @param url    where the console sends the browser: the gate's ticket endpoint on the app's origin
     */
    public record Issued(String ticket, String url) {
    }

    static final String UNKNOWN = "unknown, used or expired ticket";

    @PersistenceContext(unitName = "qaldy")
    EntityManager em;

    @Inject
    AppGuard guard;

    @Inject
    PublicUrls urls;

    @Inject
    SessionIssuer sessions;

    @Inject
    Clock clock;

    @Inject
    @ConfigProperty(name = "qaldy.tickets.ttl", defaultValue = "PT60S")
    Duration ttl;

    /**
     * Issues a ticket for {@code me} to open {@code appName} at {@code returnPath}. Whether
     * {@code me} may open the app is the gate's access check, after the ticket is redeemed.
     *
     * @throws NotFound when there is no such app
     */
    public Issued issue(Session me, String appName, String returnPath) {
        String path = TicketCodes.checkReturnPath(returnPath);
        String app = guard.existing(appName).name();
        String ticket = TicketCodes.newTicket();
        Instant now = clock.instant();
        em.persist(new Ticket(TicketCodes.hash(ticket), me.personId(), app, path, now, now.plus(ttl)));
        String url = urls.app(app) + ".qaldy/ticket?t=" + ticket + "&return="
                + URLEncoder.encode(path, StandardCharsets.UTF_8).replace("%2F", "/");
        return new Issued(ticket, url);
    }

    /**
     * Redeems a ticket once, for the app it was issued for, and signs a session for its person on
     * that app's origin only.
     *
     * @throws NotFound for an unknown, used, expired or other app's ticket
     */
    public SignedSession redeem(String ticket, String appName) {
        if (ticket == null || ticket.isEmpty() || ticket.length() > 200 || appName == null) {
            throw new NotFound(UNKNOWN);
        }
        Ticket found = em.createNamedQuery(Ticket.BY_HASH, Ticket.class)
                .setParameter("hash", TicketCodes.hash(ticket))
                .setLockMode(LockModeType.PESSIMISTIC_WRITE)
                .getResultStream().findFirst().orElseThrow(() -> new NotFound(UNKNOWN));
        Instant now = clock.instant();
        if (!found.isRedeemable(appName, now)) {
            throw new NotFound(UNKNOWN);
        }
        found.use(now);
        Person person = em.find(Person.class, found.personId());
        if (person == null) {
            throw new NotFound(UNKNOWN);
        }
        return sessions.issueForApp(person, appName);
    }

    /**
     * Deletes expired tickets, used or not.
     *
     * @return how many were deleted
     */
    public int purgeExpired() {
        return em.createNamedQuery(Ticket.EXPIRED).setParameter("now", clock.instant().toEpochMilli()).executeUpdate();
    }
}
