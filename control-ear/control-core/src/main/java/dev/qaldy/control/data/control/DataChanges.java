package dev.qaldy.control.data.control;

import dev.qaldy.contract.data.DataChange;
import dev.qaldy.control.data.entity.DataClock;
import dev.qaldy.control.data.entity.DataRecord;
import dev.qaldy.control.data.entity.DataTombstone;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.TypedQuery;
import jakarta.transaction.Transactional;
import java.util.ArrayList;
import java.util.List;

/**
 * The data feed the runtime hosts' replicas follow (issue 18): every record as it is now and every
 * tombstone, in sequence order, after a position. A record changed twice appears once, with its
 * last change; sequences come from {@code DataClock}, so nothing below a page's end commits later.
 */
@ApplicationScoped
@Transactional
public class DataChanges {

    /** Most changes in one page. */
    public static final int MAX_PAGE = 1000;

    /**
     * A page: its changes, {@code next} the last sequence in it (the position given when empty),
     * {@code more} when more may follow, {@code head} the last change committed when it was read.
     */
    public record Page(List<DataChange> changes, long next, boolean more, long head) {
    }

    @PersistenceContext(unitName = "qaldy")
    EntityManager em;

    /**
     * Changes after {@code since}, at most {@code limit} (1..{@value #MAX_PAGE}), of every app or of
     * {@code app} alone (null: every app).
     */
    public Page since(long since, int limit, String app) {
        long head = DataClock.head(em);
        TypedQuery<DataRecord> records = app == null
                ? em.createNamedQuery(DataRecord.CHANGED_SINCE, DataRecord.class)
                : em.createNamedQuery(DataRecord.CHANGED_SINCE_OF_APP, DataRecord.class).setParameter("app", app);
        TypedQuery<DataTombstone> tombstones = app == null
                ? em.createNamedQuery(DataTombstone.SINCE, DataTombstone.class)
                : em.createNamedQuery(DataTombstone.SINCE_OF_APP, DataTombstone.class).setParameter("app", app);
        List<DataRecord> changed = records.setParameter("since", since).setMaxResults(limit).getResultList();
        List<DataTombstone> gone = tombstones.setParameter("since", since).setMaxResults(limit).getResultList();
        List<DataChange> page = new ArrayList<>(limit);
        int r = 0;
        int t = 0;
        while (page.size() < limit && (r < changed.size() || t < gone.size())) {
            boolean record = t >= gone.size() || (r < changed.size() && changed.get(r).changeSeq() < gone.get(t).sequence());
            page.add(record ? change(changed.get(r++)) : change(gone.get(t++)));
        }
        boolean more = changed.size() == limit || gone.size() == limit || r < changed.size() || t < gone.size();
        long next = page.isEmpty() ? since : page.get(page.size() - 1).seq();
        // Read before the pages, the head may be below a change they hold that committed meanwhile: never behind the page.
        return new Page(page, next, more, Math.max(head, next));
    }

    private static DataChange change(DataRecord r) {
        return DataChange.record(r.changeSeq(), r.app().name(), r.collection(), r.id(), r.body(), r.createdBy(),
                r.createdAt().toEpochMilli(), r.updatedAt().toEpochMilli());
    }

    private static DataChange change(DataTombstone t) {
        return t.recordId() == null ? DataChange.appDeleted(t.sequence(), t.appName())
                : DataChange.deleted(t.sequence(), t.appName(), t.collection(), t.recordId());
    }
}
