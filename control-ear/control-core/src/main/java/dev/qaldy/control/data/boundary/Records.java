package dev.qaldy.control.data.boundary;

import dev.qaldy.control.apps.control.AppGuard;
import dev.qaldy.control.apps.entity.App;
import dev.qaldy.control.data.entity.DataCaller;
import dev.qaldy.control.data.entity.DataClock;
import dev.qaldy.control.data.entity.DataRecord;
import dev.qaldy.control.data.entity.DataTombstone;
import dev.qaldy.control.data.entity.RecordBounds;
import dev.qaldy.control.people.entity.Person;
import dev.qaldy.control.platform.control.Conflict;
import dev.qaldy.control.platform.control.NotFound;
import dev.qaldy.control.platform.control.SequenceRows;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Per-app JSON collections, for anyone who may open the app (the owner, and viewers it is shared
 * with; the access rules of {@link AppGuard}) and for the app's own server code
 * ({@link DataCaller.AppCode}, which reaches its own app only). Every write is one transaction: a process killed in
 * the middle of one leaves the record as it was before. An app holds at most
 * {@code qaldy.data.max-records-per-app} records (10,000); creating one locks the app's row, so
 * the bound holds under concurrent writes. Every write takes its sequence from {@link DataClock}
 * (issue 18: the runtime hosts' replicas follow the changes by it) and a deletion leaves a
 * {@link DataTombstone}; the sequence is the write's bookmark.
 */
@ApplicationScoped
@Transactional
public class Records {

    @PersistenceContext(unitName = "qaldy")
    EntityManager em;

    @Inject
    AppGuard guard;

    @Inject
    Clock clock;

    @Inject
    SequenceRows sequences;

    @Inject
    @ConfigProperty(name = "qaldy.data.max-records-per-app", defaultValue = "10000")
    long maxPerApp;

    /** Creates a record from JSON text; returns it with its id. */
    public DataRecord create(DataCaller caller, String appName, String collection, String json) {
        RecordBounds.collection(collection);
        String body = RecordBounds.record(json);
        App app = openable(caller, appName);
        em.lock(app, LockModeType.PESSIMISTIC_WRITE);
        long count = em.createNamedQuery(DataRecord.COUNT_OF_APP, Long.class).setParameter("app", app).getSingleResult();
        if (count >= maxPerApp) {
            throw new Conflict(appName + " holds " + count + " records, the most an app may keep; delete some first");
        }
        DataRecord record = new DataRecord(app, collection, body, author(caller), clock.instant(), nextChange());
        em.persist(record);
        em.flush();
        return record;
    }

    /**
     * A page of a collection, oldest first (or newest first), after the record {@code after} in
     * that order (null: from the start).
     */
    public List<DataRecord> list(DataCaller caller, String appName, String collection, int limit, Long after,
            boolean newestFirst) {
        RecordBounds.collection(collection);
        App app = openable(caller, appName);
        long from = after != null ? after : newestFirst ? Long.MAX_VALUE : 0L;
        return em.createNamedQuery(newestFirst ? DataRecord.PAGE_NEWEST : DataRecord.PAGE, DataRecord.class)
                .setParameter("app", app).setParameter("collection", collection).setParameter("after", from)
                .setMaxResults(limit).getResultList();
    }

    public DataRecord read(DataCaller caller, String appName, String collection, String id) {
        return find(openable(caller, appName), collection, id);
    }

    /** Replaces a record's whole object. */
    public DataRecord replace(DataCaller caller, String appName, String collection, String id, String json) {
        String body = RecordBounds.record(json);
        DataRecord record = find(openable(caller, appName), collection, id);
        em.lock(record, LockModeType.PESSIMISTIC_WRITE);
        record.replace(body, clock.instant(), nextChange());
        return record;
    }

    /** Deletes a record; returns the deletion's sequence (its bookmark). */
    public long delete(DataCaller caller, String appName, String collection, String id) {
        DataRecord record = find(openable(caller, appName), collection, id);
        long sequence = nextChange();
        em.persist(DataTombstone.ofRecord(sequence, appName, record.collection(), record.id()));
        em.remove(record);
        return sequence;
    }

    /**
     * The data feed's head: the last change committed (0 before any). Read after a page or a record,
     * it is a bookmark at least as new as what was read.
     */
    public long head() {
        return DataClock.head(em);
    }

    /** All of {@code app}'s data goes with the app (the caller deletes the rows): a tombstone for the replicas. */
    public void appDeleted(App app) {
        em.persist(DataTombstone.ofApp(nextChange(), app.name()));
    }

    private long nextChange() {
        return sequences.lock(DataClock.class).next();
    }

    /**
     * @throws NotFound unless the caller may open the app: the owner, a viewer it is shared with, or
     *                  the app's own code (never another app's)
     */
    App openable(DataCaller caller, String appName) {
        App app = guard.byName(appName).orElse(null);
        if (caller instanceof DataCaller.AppCode code) {
            if (app == null || !app.name().equals(code.app())) {
                throw new NotFound("no app named " + appName + " whose code this is");
            }
            return app;
        }
        long personId = ((DataCaller.Person) caller).id();
        Person person = em.find(Person.class, personId);
        if (app == null || person == null || !(app.isOwnedBy(personId) || guard.isSharedWith(app, person.email()))) {
            throw new NotFound("no app named " + appName + " that you can open");
        }
        return app;
    }

    private String author(DataCaller caller) {
        if (caller instanceof DataCaller.AppCode) {
            return DataCaller.APP_CODE_AUTHOR;
        }
        Person person = em.find(Person.class, ((DataCaller.Person) caller).id());
        return person == null ? "unknown" : person.email();
    }

    private DataRecord find(App app, String collection, String id) {
        RecordBounds.collection(collection);
        DataRecord record = null;
        try {
            record = em.find(DataRecord.class, Long.parseLong(id));
        } catch (NumberFormatException e) {
            // not an id: not found
        }
        if (record == null || !record.app().id().equals(app.id()) || !record.collection().equals(collection)) {
            throw new NotFound("there is no record " + id + " in " + collection);
        }
        return record;
    }
}
