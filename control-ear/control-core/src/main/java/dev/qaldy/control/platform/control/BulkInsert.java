package dev.qaldy.control.platform.control;

import jakarta.persistence.EntityManager;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.persistence.sessions.Session;

/**
 * Writes many new rows of one table with multi-row {@code INSERT … VALUES (…), (…)} statements in
 * the caller's transaction: {@link #ROWS_PER_STATEMENT} rows to one round trip. For set-based work
 * (issue 9: a scheduler tick queues 10,000 runs and their audit lines after an outage). JDBC batch
 * writing does not save round trips here: H2's TCP client sends each statement of a batch alone.
 * <p>
 * Values are written as SQL literals, not bound: EclipseLink looks up a native query's parameters
 * by a linear search per parameter, so 1,100 bound values took 80 % of a tick's time (JFR, bench 6).
 * Only numbers and strings are accepted; a string is quoted with its single quotes doubled (standard
 * SQL, as H2 and PostgreSQL read it), and one holding a NUL character or a {@code ?} (EclipseLink
 * reads it as a parameter marker, even inside a literal) is refused.
 * <p>
 * Ids come from the entity's own sequence through EclipseLink's preallocation
 * ({@link Session#getNextSequenceNumberValue}), exactly as {@code em.persist} would take them, so
 * rows written here and entities persisted elsewhere never share an id.
 */
public final class BulkInsert {

    /** Rows per INSERT statement. */
    public static final int ROWS_PER_STATEMENT = 250;

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
     * Inserts {@code rows} into {@code table}.
     *
     * @param columns the column names, in the order of each row's values
     * @param rows    each row's values: Long, Integer, String or null
     * @return how many rows were inserted
     * @throws IllegalArgumentException for a row of the wrong width or a value of another type
     * @throws RuntimeException         when the database refuses a row (e.g. a unique key): the
     *                                  caller's transaction must roll back as a whole
     */
    public static int insert(EntityManager em, String table, List<String> columns, List<Object[]> rows) {
        int inserted = 0;
        for (int from = 0; from < rows.size(); from += ROWS_PER_STATEMENT) {
            inserted += em.createNativeQuery(statement(table, columns, rows.subList(from, Math.min(rows.size(), from + ROWS_PER_STATEMENT))))
                    .executeUpdate();
        }
        return inserted;
    }

    /** One {@code INSERT … VALUES} statement for {@code rows}, values as literals. */
    static String statement(String table, List<String> columns, List<Object[]> rows) {
        StringBuilder sql = new StringBuilder("INSERT INTO ").append(table).append(" (")
                .append(String.join(", ", columns)).append(") VALUES ");
        for (int r = 0; r < rows.size(); r++) {
            Object[] row = rows.get(r);
            if (row.length != columns.size()) {
                throw new IllegalArgumentException("a row of " + row.length + " values for " + columns.size() + " columns");
            }
            sql.append(r == 0 ? "(" : ", (");
            for (int c = 0; c < row.length; c++) {
                if (c > 0) {
                    sql.append(", ");
                }
                literal(sql, row[c]);
            }
            sql.append(')');
        }
        return sql.toString();
    }

    private static void literal(StringBuilder sql, Object value) {
        if (value == null) {
            sql.append("NULL");
        } else if (value instanceof Long || value instanceof Integer) {
            sql.append(value);
        } else if (value instanceof String text) {
            if (text.indexOf('\0') >= 0 || text.indexOf('?') >= 0) {
                throw new IllegalArgumentException("a NUL character or a '?' (EclipseLink reads it as a parameter) in a value");
            }
            sql.append('\'').append(text.replace("'", "''")).append('\'');
        } else {
            throw new IllegalArgumentException("not a number or a string: " + value.getClass().getName());
        }
    }
}
