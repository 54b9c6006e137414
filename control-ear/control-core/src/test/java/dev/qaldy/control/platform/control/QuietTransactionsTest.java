package dev.qaldy.control.platform.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.interceptor.InvocationContext;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;
import jakarta.transaction.TransactionalException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/**
 * The carrying interceptors' rules, around a stand-in for the platform's interceptor (the real one,
 * Liberty's, is checked by LibertyAdminIT: no FFDC incident for a refusal or a database outage).
 */
class QuietTransactionsTest {

    static class Facade {
        @Transactional
        public void refuses() {
            throw new NotFound("no app named x");
        }

        @Transactional(dontRollbackOn = NotFound.class)
        public void refusesAndKeeps() {
            throw new NotFound("no app named y");
        }
    }

    /** A registry with one transaction in {@code status}. */
    static final class Registry implements TransactionSynchronizationRegistry {
        int status = Status.STATUS_ACTIVE;

        @Override public Object getTransactionKey() { return "tx"; }
        @Override public void putResource(Object key, Object value) { }
        @Override public Object getResource(Object key) { return null; }
        @Override public void registerInterposedSynchronization(Synchronization sync) { }
        @Override public int getTransactionStatus() { return status; }
        @Override public void setRollbackOnly() { status = Status.STATUS_MARKED_ROLLBACK; }
        @Override public boolean getRollbackOnly() { return status == Status.STATUS_MARKED_ROLLBACK; }
    }

    static InvocationContext call(Method method, Callable<Object> proceed) {
        return new InvocationContext() {
            final Map<String, Object> data = new HashMap<>();
            @Override public Object getTarget() { return null; }
            @Override public Object getTimer() { return null; }
            @Override public Method getMethod() { return method; }
            @Override public Constructor<?> getConstructor() { return null; }
            @Override public Object[] getParameters() { return new Object[0]; }
            @Override public void setParameters(Object[] params) { }
            @Override public Map<String, Object> getContextData() { return data; }
            @Override public Object proceed() throws Exception { return proceed.call(); }
        };
    }

    final Registry registry = new Registry();
    final QuietTransactions.Carry carry = new QuietTransactions.CarryRequired();
    final QuietTransactions.Uncarry uncarry = new QuietTransactions.UncarryRequired();

    {
        carry.transaction = registry;
    }

    @Test
    void a_runtime_exception_crosses_the_platform_checked_marks_the_transaction_and_leaves_as_itself() throws Exception {
        Method refuses = Facade.class.getMethod("refuses");
        Facade facade = new Facade();
        // The platform passes a checked exception on, or (Liberty, undeclared) wraps it in a TransactionalException.
        for (boolean wrapped : new boolean[] {false, true}) {
            registry.status = Status.STATUS_ACTIVE;
            InvocationContext platform = call(refuses, () -> {
                try {
                    return carry.carry(call(refuses, () -> {
                        facade.refuses();
                        return null;
                    }));
                } catch (QuietTransactions.Carried carried) {
                    assertThat(registry.getRollbackOnly()).as("marked before the platform sees it").isTrue();
                    throw wrapped ? new TransactionalException(carried.getMessage(), carried) : carried;
                }
            });
            assertThatThrownBy(() -> uncarry.uncarry(platform)).isInstanceOf(NotFound.class).hasMessage("no app named x");
        }
    }

    @Test
    void dont_rollback_on_and_no_transaction_leave_the_transaction_as_it_is() throws Exception {
        Method keeps = Facade.class.getMethod("refusesAndKeeps");
        assertThatThrownBy(() -> carry.carry(call(keeps, () -> {
            new Facade().refusesAndKeeps();
            return null;
        }))).isInstanceOf(QuietTransactions.Carried.class);
        assertThat(registry.status).isEqualTo(Status.STATUS_ACTIVE);

        registry.status = Status.STATUS_NO_TRANSACTION;
        Method refuses = Facade.class.getMethod("refuses");
        assertThatThrownBy(() -> carry.carry(call(refuses, () -> {
            new Facade().refuses();
            return null;
        }))).isInstanceOf(QuietTransactions.Carried.class);
        assertThat(registry.status).isEqualTo(Status.STATUS_NO_TRANSACTION);
    }

    @Test
    void answers_and_checked_exceptions_pass_untouched() throws Exception {
        Method refuses = Facade.class.getMethod("refuses");
        assertThat(uncarry.uncarry(call(refuses, () -> carry.carry(call(refuses, () -> "answer"))))).isEqualTo("answer");
        Exception checked = new java.io.IOException("checked");
        assertThatThrownBy(() -> uncarry.uncarry(call(refuses, () -> carry.carry(call(refuses, () -> {
            throw checked;
        }))))).isSameAs(checked);
        TransactionalException platformOwn = new TransactionalException("commit failed", new IllegalStateException());
        assertThatThrownBy(() -> uncarry.uncarry(call(refuses, () -> {
            throw platformOwn;
        }))).isSameAs(platformOwn);
        assertThat(registry.status).isEqualTo(Status.STATUS_ACTIVE);
    }
}
