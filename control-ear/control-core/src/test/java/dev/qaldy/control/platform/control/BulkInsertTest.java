package dev.qaldy.control.platform.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.persistence.EntityManager;
import jakarta.persistence.Query;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Rows go out 100 to a statement, each value bound once in order, nulls as literals. */
class BulkInsertTest {

    /** One native statement as the entity manager was given it. */
    record Statement(String sql, Map<Integer, Object> parameters) {
    }

    private final List<Statement> statements = new ArrayList<>();

    /** An entity manager that records native statements and answers each with its row count. */
    private EntityManager recorder() {
        return (EntityManager) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {EntityManager.class},
                (em, method, args) -> {
                    if (!method.getName().equals("createNativeQuery")) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    Statement statement = new Statement((String) args[0], new TreeMap<>());
                    statements.add(statement);
                    return Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Query.class}, (query, m, a) -> {
                        switch (m.getName()) {
                            case "setParameter" -> {
                                statement.parameters().put((Integer) a[0], a[1]);
                                return query;
                            }
                            case "executeUpdate" -> {
                                return (int) statement.sql().chars().filter(c -> c == '(').count() - 1;
                            }
                            default -> throw new UnsupportedOperationException(m.getName());
                        }
                    });
                });
    }

    @Test
    void twoHundredFiftyRowsAreThreeStatements() {
        List<Object[]> rows = new ArrayList<>();
        for (long i = 1; i <= 250; i++) {
            rows.add(new Object[] {i, "run " + i});
        }
        assertThat(BulkInsert.insert(recorder(), "RUNS", List.of("ID", "JOB"), rows)).isEqualTo(250);
        assertThat(statements).hasSize(3);
        assertThat(statements.get(0).sql()).startsWith("INSERT INTO RUNS (ID, JOB) VALUES (?1, ?2), (?3, ?4), ")
                .endsWith("(?199, ?200)");
        assertThat(statements.get(2).parameters()).hasSize(100).containsEntry(1, 201L).containsEntry(100, "run 250");
    }

    @Test
    void aNullIsWrittenAsALiteralAndTheNumberingSkipsIt() {
        BulkInsert.insert(recorder(), "AUDIT_ENTRIES", List.of("ID", "APP_ID", "TARGET"),
                List.of(new Object[] {1L, null, "a"}, new Object[] {2L, 7L, "b"}));
        assertThat(statements.get(0).sql()).isEqualTo("INSERT INTO AUDIT_ENTRIES (ID, APP_ID, TARGET) VALUES (?1, NULL, ?2), (?3, ?4, ?5)");
        assertThat(statements.get(0).parameters()).containsExactly(Map.entry(1, 1L), Map.entry(2, "a"), Map.entry(3, 2L),
                Map.entry(4, 7L), Map.entry(5, "b"));
    }

    @Test
    void nothingToWriteWritesNothing() {
        assertThat(BulkInsert.insert(recorder(), "RUNS", List.of("ID"), List.of())).isZero();
        assertThat(statements).isEmpty();
    }

    @Test
    void aRowOfTheWrongWidthIsRefused() {
        assertThatThrownBy(() -> BulkInsert.insert(recorder(), "RUNS", List.of("ID", "JOB"), List.<Object[]>of(new Object[] {1L})))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
