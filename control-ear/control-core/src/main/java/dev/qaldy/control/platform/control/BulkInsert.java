package dev.qaldy.control.platform.control;

import jakarta.persistence.EntityManager;
import jakarta.persistence.Query;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.persistence.sessions.Session;

/**
 * Writes many new rows of one table with multi-row {@code INSERT … VALUES (…), (…)} statements in
 * the caller's transaction: {@link #ROWS_PER_STATEMENT} rows to one round trip. For set-based work
 * (issue 9: a scheduler tick queues 10,000 runs and their audit lines after an outage). JDBC batch
 * writing does not save round trips here: H2's TCP client sends each statement of a batch alone.
 * <p>
 * Ids come from the entity's own sequence through EclipseLink's preallocation
 * ({@link Session#getNextSequenceNumberValue}), exactly as {@code em.persist} would take them, so
 * rows written here and entities persisted elsewhere never share an id.
 */
public final class BulkInsert {

    /** Rows per INSERT statement (at 7 parameters a row, well under every database's parameter limit). */
    public static final int ROWS_PER_STATEMENT = 100;

    private BulkInsert() {
    }

    /**
     * {@code count} new ids of {@code entity} from its sequence.
     *
     * @throws RuntimeException when the database cannot be asked
     */
    public static List<Long> ids(EntityManager em, Class<?> entity, int count) {
        Session session = em.unwrap(Session.class);
        List<Long> ids = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            ids.add(session.getNextSequenceNumberValue(entity).longValue());
        }
        return ids;
    }

    /**
     * Inserts {@code rows} into {@code table}. A value is bound as a parameter; a null value is
     * written as the literal {@code NULL} (a parameter of unknown type is refused by some drivers).
     *
     * @param columns the column names, in the order of each row's values
     * @param rows    each row's values: Long, Integer, String or null
     * @return how many rows were inserted
     * @throws RuntimeException when the database refuses a row (e.g. a unique key): the caller's
     *                          transaction must roll back as a whole
     */
    public static int insert(EntityManager em, String table, List<String> columns, List<Object[]> rows) {
        int inserted = 0;
        for (int from = 0; from < rows.size(); from += ROWS_PER_STATEMENT) {
            List<Object[]> chunk = rows.subList(from, Math.min(rows.size(), from + ROWS_PER_STATEMENT));
            StringBuilder sql = new StringBuilder("INSERT INTO ").append(table).append(" (")
                    .append(String.join(", ", columns)).append(") VALUES ");
            List<Object> values = new ArrayList<>();
            for (int r = 0; r < chunk.size(); r++) {
                Object[] row = chunk.get(r);
                if (row.length != columns.size()) {
                    throw new IllegalArgumentException("a row of " + row.length + " values for " + columns.size() + " columns");
                }
                sql.append(r == 0 ? "(" : ", (");
                for (int c = 0; c < row.length; c++) {
                    if (c > 0) {
                        sql.append(", ");
                    }
                    if (row[c] == null) {
                        sql.append("NULL");
                    } else {
                        values.add(row[c]);
                        sql.append('?').append(values.size());
                    }
                }
                sql.append(')');
            }
            Query query = em.createNativeQuery(sql.toString());
            for (int i = 0; i < values.size(); i++) {
                query.setParameter(i + 1, values.get(i));
            }
            inserted += query.executeUpdate();
        }
        return inserted;
    }
}
