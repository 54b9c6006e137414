package dev.qaldy.control.people.boundary;

import dev.qaldy.control.audit.entity.Audited;
import dev.qaldy.control.people.control.PasswordHasher;
import dev.qaldy.control.people.entity.EmailAddress;
import dev.qaldy.control.people.entity.PasswordRule;
import dev.qaldy.control.people.entity.Person;
import dev.qaldy.control.platform.control.Conflict;
import dev.qaldy.control.platform.control.NotSignedIn;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.PersistenceException;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.util.Optional;

/** Accounts: sign-up and looking people up. */
@ApplicationScoped
@Transactional
public class People {

    @PersistenceContext(unitName = "qaldy")
    EntityManager em;

    @Inject
    PasswordHasher hasher;

    @Inject
    Clock clock;

    @Inject
    Event<Audited> audit;

    /**
     * Creates an account.
     *
     * @throws dev.qaldy.control.platform.control.InvalidInput for a bad email or password
     * @throws Conflict when the email already has an account
     */
    public Person signUp(String rawEmail, String password) {
        String email = EmailAddress.normalize(rawEmail);
        PasswordRule.check(password);
        if (byEmail(email).isPresent()) {
            throw new Conflict("an account with this email already exists");
        }
        Person person = new Person(email, hasher.hash(password), clock.instant());
        try {
            em.persist(person);
            em.flush();
        } catch (PersistenceException raced) {
            throw new Conflict("an account with this email already exists");
        }
        audit.fire(Audited.personal(email, Audited.SIGN_UP));
        return person;
    }

    /** The person with this (normalized) email, if any. */
    public Optional<Person> byEmail(String email) {
        return em.createNamedQuery(Person.BY_EMAIL, Person.class).setParameter("email", email)
                .getResultStream().findFirst();
    }

    /** @throws NotSignedIn when the signed-in person no longer exists */
    public Person signedIn(long personId) {
        Person person = em.find(Person.class, personId);
        if (person == null) {
            throw new NotSignedIn("this account no longer exists");
        }
        return person;
    }
}
