package dev.qaldy.control.people.boundary;

import dev.qaldy.contract.session.Session;
import dev.qaldy.control.audit.entity.Audited;
import dev.qaldy.control.people.control.PasswordHasher;
import dev.qaldy.control.people.control.SessionIssuer;
import dev.qaldy.control.people.control.SignInThrottle;
import dev.qaldy.control.people.entity.EmailAddress;
import dev.qaldy.control.people.entity.Person;
import dev.qaldy.control.people.entity.SignOutPage;
import dev.qaldy.control.people.entity.SignedSession;
import dev.qaldy.control.platform.control.NotSignedIn;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.util.Optional;

/** Signing in and out. */
@ApplicationScoped
@Transactional
public class Sessions {

    /** Same words for an unknown email and a wrong password, so a refusal never says which. */
    static final String REFUSED = "wrong email or password";
    /** Longest password even looked at, in characters: bounds the hashing work per attempt. */
    static final int MAX_PASSWORD_LENGTH = 1024;

    @Inject
    People people;

    @Inject
    PasswordHasher hasher;

    @Inject
    SignInThrottle throttle;

    @Inject
    SessionIssuer issuer;

    @Inject
    Event<Audited> audit;

    /**
     * Signs a person in.
     *
     * @param address the client's address, for the slow-down of guessing (see {@link SignInThrottle})
     * @throws dev.qaldy.control.platform.control.TooManyAttempts after too many recent failures for the email
     * @throws NotSignedIn for an unknown email or a wrong password (recorded as a failure)
     */
    // Outside a transaction: each step commits on its own, and a refused attempt's failure is recorded
    // by SignInThrottle's REQUIRES_NEW with no transaction to suspend. Nested in one, Payara's interceptor
    // never resumed the sign-in's transaction when the failure's commit threw, and that transaction kept
    // its pooled connection for good (issue 14). The password hash is also checked holding no connection.
    @Transactional(Transactional.TxType.NOT_SUPPORTED)
    public SignedSession signIn(String rawEmail, String password, String address) {
        String email = EmailAddress.normalizeLeniently(rawEmail);
        throttle.checkAllowed(email, address);
        Optional<Person> person = people.byEmail(email);
        boolean ok = password != null && password.length() <= MAX_PASSWORD_LENGTH
                && (person.isPresent() ? hasher.verify(password, person.get().passwordHash())
                        : hasher.verifyNothing(password));
        if (!ok) {
            throttle.recordFailure(email, address);
            throw new NotSignedIn(REFUSED);
        }
        throttle.forget(email);
        audit.fire(Audited.personal(email, Audited.SIGN_IN));
        return issuer.issue(person.get());
    }

    /** Signs the session out: the API and every gate refuse its token from now on. */
    public void signOut(Session session) {
        issuer.signOut(session);
        audit.fire(Audited.personal(session.email(), Audited.SIGN_OUT));
    }

    /**
     * Signs out the session of {@code token} for a gate ({@code /.qaldy/signout} on an app's
     * origin): any session of this cell, of the API or of one app's origin.
     *
     * @throws dev.qaldy.control.platform.control.InvalidInput for a token that is not a valid, unexpired session
     */
    public void signOutToken(String token) {
        Session session = issuer.signOutToken(token);
        audit.fire(Audited.personal(session.email(), Audited.SIGN_OUT));
    }

    /**
     * The session a bearer token carries.
     *
     * @throws NotSignedIn for anything but a valid token that was not signed out
     */
    public Session verify(String token) {
        return issuer.verify(token);
    }

    /** Unexpired sign-out marks after position {@code after}, at most {@code limit}, for a starting gate. */
    public SignOutPage unexpiredSignOuts(long after, int limit) {
        return issuer.unexpiredSignOuts(after, limit);
    }
}
