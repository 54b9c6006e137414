package dev.qaldy.control.platform.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.persistence.EntityManager;
import jakarta.persistence.Query;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Rows go out {@link BulkInsert#ROWS_PER_STATEMENT} to a statement, values as safe literals. */
class BulkInsertTest {

    private final List<String> statements = new ArrayList<>();

    /** An entity manager that records native statements and answers each with its row count. */
    private EntityManager recorder() {
        return (EntityManager) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {EntityManager.class},
                (em, method, args) -> {
                    if (!method.getName().equals("createNativeQuery")) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    String sql = (String) args[0];
                    statements.add(sql);
                    return Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Query.class}, (query, m, a) -> {
                        if (!m.getName().equals("executeUpdate")) {
                            throw new UnsupportedOperationException(m.getName());
                        }
                        return sql.split("\\), \\(").length;
                    });
                });
    }

    @Test
    void rowsGoOutAStatementPerChunk() {
        int count = BulkInsert.ROWS_PER_STATEMENT * 2 + 7;
        List<Object[]> rows = new ArrayList<>();
        for (long i = 1; i <= count; i++) {
            rows.add(new Object[] {i, "job-" + i});
        }
        assertThat(BulkInsert.insert(recorder(), "RUNS", List.of("ID", "JOB"), rows)).isEqualTo(count);
        assertThat(statements).hasSize(3);
        assertThat(statements.get(0)).startsWith("INSERT INTO RUNS (ID, JOB) VALUES (1, 'job-1'), (2, 'job-2'), ")
                .endsWith("(" + BulkInsert.ROWS_PER_STATEMENT + ", 'job-" + BulkInsert.ROWS_PER_STATEMENT + "')");
        assertThat(statements.get(2)).endsWith("(" + count + ", 'job-" + count + "')");
    }

    @Test
    void nullsNumbersAndQuotesAreWrittenAsStandardLiterals() {
        assertThat(BulkInsert.statement("AUDIT_ENTRIES", List.of("ID", "APP_ID", "TARGET", "ATTEMPTS"),
                List.of(new Object[] {1L, null, "it's; DROP TABLE RUNS; --", 0}, new Object[] {2L, 7L, "back\\slash", 3})))
                .isEqualTo("INSERT INTO AUDIT_ENTRIES (ID, APP_ID, TARGET, ATTEMPTS) VALUES"
                        + " (1, NULL, 'it''s; DROP TABLE RUNS; --', 0), (2, 7, 'back\\slash', 3)");
    }

    @Test
    void nothingToWriteWritesNothing() {
        assertThat(BulkInsert.insert(recorder(), "RUNS", List.of("ID"), List.of())).isZero();
        assertThat(statements).isEmpty();
    }

    @Test
    void aRowOfTheWrongWidthAValueOfAnotherTypeANulOrAQuestionMarkIsRefused() {
        assertThatThrownBy(() -> BulkInsert.statement("RUNS", List.of("ID", "JOB"), List.<Object[]>of(new Object[] {1L})))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BulkInsert.statement("RUNS", List.of("ID"), List.<Object[]>of(new Object[] {1.5})))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BulkInsert.statement("RUNS", List.of("JOB"), List.<Object[]>of(new Object[] {"a\0b"})))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BulkInsert.statement("RUNS", List.of("JOB"), List.<Object[]>of(new Object[] {"why?"})))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
