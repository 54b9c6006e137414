package dev.qaldy.control.access.boundary;

import dev.qaldy.control.access.entity.AccessDecision;
import dev.qaldy.control.apps.control.AppGuard;
import dev.qaldy.control.apps.entity.App;
import dev.qaldy.control.people.entity.Person;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;

/** Decides who may open an app: the owner always; viewers the app is shared with by email; nobody else. */
@ApplicationScoped
@Transactional
public class Access {

    @PersistenceContext(unitName = "qaldy")
    EntityManager em;

    @Inject
    AppGuard guard;

    /**
     * The decision for ({@code appName}, {@code personId}), with the app's sharing version.
     *
     * @throws dev.qaldy.control.platform.control.NotFound when there is no such app
     */
    public AccessDecision decide(String appName, long personId) {
        App app = guard.existing(appName);
        Person person = em.find(Person.class, personId);
        boolean allowed = person != null && (app.isOwnedBy(personId) || guard.isSharedWith(app, person.email()));
        return new AccessDecision(app.name(), personId, allowed ? AccessDecision.ALLOW : AccessDecision.DENY,
                app.sharingVersion(), app.owner().id());
    }
}
