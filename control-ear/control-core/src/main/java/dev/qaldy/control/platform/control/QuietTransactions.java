package dev.qaldy.control.platform.control;

import jakarta.annotation.Priority;
import jakarta.annotation.Resource;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionalException;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.util.Arrays;

/**
 * Keeps Open Liberty from writing an FFDC incident for an exception that leaves a
 * {@code @Transactional} method (issue 21). Liberty's transactional interceptor runs the method as a
 * unit of work whose manager reports every {@code RuntimeException} as an incident (a file under
 * {@code logs/ffdc} for each distinct message): every {@code NotFound} for another app name, every
 * wrong password, and every call refused during a database outage. A checked exception it passes
 * on without a report. So an interceptor just inside the platform's ({@link Carry}, priority 201)
 * carries a {@code RuntimeException} out as a checked {@link Carried}, first marking the transaction
 * rollback-only as the platform would have (JTA: a {@code RuntimeException} rolls back unless
 * {@code dontRollbackOn} names it; the platform then rolls back a marked transaction without a
 * word), and one just outside it ({@link Uncarry}, 199) throws the original again: callers see the
 * same exception, the transaction ends the same way. The same on Payara (no incidents there).
 */
public final class QuietTransactions {

    /** The priority of the platform's {@code @Transactional} interceptors (JTA 2.0, 3.7). */
    static final int PLATFORM = Interceptor.Priority.PLATFORM_BEFORE + 200;

    private QuietTransactions() {
    }

    /** A {@code RuntimeException} on its way through the platform's transactional interceptor. */
    public static final class Carried extends Exception {
        private static final long serialVersionUID = 1L;
        private final RuntimeException carried;

        Carried(RuntimeException carried) {
            super(carried.getMessage(), carried, false, false);
            this.carried = carried;
        }

        /** The exception the method threw. */
        public RuntimeException carried() {
            return carried;
        }
    }

    /** Inside the platform's interceptor: a {@code RuntimeException} leaves as {@link Carried}, the transaction marked as JTA says. */
    abstract static class Carry {

        @Resource
        TransactionSynchronizationRegistry transaction;

        @AroundInvoke
        Object carry(InvocationContext call) throws Exception {
            try {
                return call.proceed();
            } catch (RuntimeException e) {
                if (rollsBack(call, e) && transaction.getTransactionStatus() == Status.STATUS_ACTIVE) {
                    transaction.setRollbackOnly();
                }
                throw new Carried(e);
            }
        }

        /** JTA's rule for {@code e}: a {@code RuntimeException} rolls back unless {@code dontRollbackOn} names it. */
        static boolean rollsBack(InvocationContext call, RuntimeException e) {
            Transactional declared = call.getMethod().getAnnotation(Transactional.class);
            if (declared == null) {
                declared = call.getMethod().getDeclaringClass().getAnnotation(Transactional.class);
            }
            return declared == null || Arrays.stream(declared.dontRollbackOn()).noneMatch(type -> type.isInstance(e));
        }
    }

    /**
     * Outside the platform's interceptor: the method's own exception again, whether the platform passed
     * {@link Carried} on as it is or wrapped it in a {@code TransactionalException} (Liberty does, for a
     * checked exception the method does not declare).
     */
    abstract static class Uncarry {

        @AroundInvoke
        Object uncarry(InvocationContext call) throws Exception {
            try {
                return call.proceed();
            } catch (Carried carried) {
                throw carried.carried();
            } catch (TransactionalException wrapped) {
                if (wrapped.getCause() instanceof Carried carried) {
                    throw carried.carried();
                }
                throw wrapped;
            }
        }
    }

    // @Transactional's value is a binding member: one pair per transaction type.

    @Transactional(TxType.REQUIRED) @Interceptor @Priority(PLATFORM + 1)
    static class CarryRequired extends Carry {
    }

    @Transactional(TxType.REQUIRES_NEW) @Interceptor @Priority(PLATFORM + 1)
    static class CarryRequiresNew extends Carry {
    }

    @Transactional(TxType.MANDATORY) @Interceptor @Priority(PLATFORM + 1)
    static class CarryMandatory extends Carry {
    }

    @Transactional(TxType.SUPPORTS) @Interceptor @Priority(PLATFORM + 1)
    static class CarrySupports extends Carry {
    }

    @Transactional(TxType.NOT_SUPPORTED) @Interceptor @Priority(PLATFORM + 1)
    static class CarryNotSupported extends Carry {
    }

    @Transactional(TxType.NEVER) @Interceptor @Priority(PLATFORM + 1)
    static class CarryNever extends Carry {
    }

    @Transactional(TxType.REQUIRED) @Interceptor @Priority(PLATFORM - 1)
    static class UncarryRequired extends Uncarry {
    }

    @Transactional(TxType.REQUIRES_NEW) @Interceptor @Priority(PLATFORM - 1)
    static class UncarryRequiresNew extends Uncarry {
    }

    @Transactional(TxType.MANDATORY) @Interceptor @Priority(PLATFORM - 1)
    static class UncarryMandatory extends Uncarry {
    }

    @Transactional(TxType.SUPPORTS) @Interceptor @Priority(PLATFORM - 1)
    static class UncarrySupports extends Uncarry {
    }

    @Transactional(TxType.NOT_SUPPORTED) @Interceptor @Priority(PLATFORM - 1)
    static class UncarryNotSupported extends Uncarry {
    }

    @Transactional(TxType.NEVER) @Interceptor @Priority(PLATFORM - 1)
    static class UncarryNever extends Uncarry {
    }
}
