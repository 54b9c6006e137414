package dev.qaldy.control.platform.control;

import java.io.PrintWriter;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLNonTransientConnectionException;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.persistence.exceptions.DatabaseException;
import org.eclipse.persistence.sessions.Connector;
import org.eclipse.persistence.sessions.DatasourceLogin;
import org.eclipse.persistence.sessions.Login;
import org.eclipse.persistence.sessions.Session;
import org.eclipse.persistence.sessions.SessionEvent;
import org.eclipse.persistence.sessions.SessionEventAdapter;
import org.eclipse.persistence.sessions.server.ServerSession;

/**
 * Lets the control plane start while its database is unreachable (issue 6: a control plane restarted
 * during an outage still catches up once the database is back). Payara deploys every persistence unit
 * when it deploys the application (it creates an EntityManager, so EclipseLink logs in); when that login
 * cannot reach the database, Payara closes the factory and fails the deployment for good, so the control
 * plane answered nothing until it was restarted by hand ({@code --skipdsfailure} closes it too).
 *
 * <p>Registered by {@link FailFastDatabase} as a session event listener: while the session logs in
 * (between EclipseLink's {@code preLogin} and {@code postLogin}, on the thread logging in), a connection the data source cannot
 * make because the database is unreachable ({@link DatabaseUnreachable}) is replaced by a stand-in that refuses every use but {@code close()}. EclipseLink's login only
 * opens and closes connections to set up its pools (a JTA data source's connections are taken from the
 * server's pool on each use anyway), so the login ends without the database; every later connection is
 * asked of the data source as before and fails until the database answers (requests get the 503 with
 * {@code Retry-After} of any database outage), then works, with no restart. Anything else that fails,
 * and every failure after the login, is thrown as before. The schema is migrated at the login when the
 * database answered it ({@link MigrateAtLogin}), else once it answers ({@link SchemaUpdate}).
 */
public class StartWithoutDatabase extends SessionEventAdapter {

    private static final Logger LOG = Logger.getLogger(StartWithoutDatabase.class.getName());

    /** The thread logging the session in, between preLogin and postLogin; null otherwise (a failed login ends no other way). */
    private volatile Thread loggingIn;
    private final AtomicBoolean startedWithout = new AtomicBoolean();
    /** Whether any session of this application started without its database (one persistence unit here). */
    private static volatile boolean anyStartedWithout;

    @Override
    public void preLogin(SessionEvent event) {
        loggingIn = Thread.currentThread();
        defer(event.getSession().getDatasourceLogin());
        if (event.getSession() instanceof ServerSession server) {
            defer(server.getReadConnectionPool().getLogin());
            server.getConnectionPools().values().forEach(pool -> defer(pool.getLogin()));
        }
    }

    /** Wraps the connector of {@code login} (the session's, and each pool's copy) once. */
    private void defer(Login login) {
        if (login instanceof DatasourceLogin datasource && !(datasource.getConnector() instanceof Deferring)) {
            datasource.setConnector(new Deferring(datasource.getConnector(), this));
        }
    }

    @Override
    public void postLogin(SessionEvent event) {
        loggingIn = null;
    }

    /** Whether the login went through without the database (its schema is then still to be brought up to date). */
    public boolean startedWithoutDatabase() {
        return startedWithout.get();
    }

    /** Whether a session of this application started without its database (then its schema is still to be brought up to date). */
    public static boolean anyStartedWithoutDatabase() {
        return anyStartedWithout;
    }

    /** The stand-in for a connection the login could not make: {@code close()} does nothing, anything else throws. */
    static Connection standIn(String reason) {
        return (Connection) Proxy.newProxyInstance(StartWithoutDatabase.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "close" -> null;
                    case "isClosed" -> Boolean.FALSE;
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    case "toString" -> "no connection (database unreachable at start)";
                    default -> throw new SQLNonTransientConnectionException("the database was unreachable at start: " + reason, "08001");
                });
    }

    /** The data source's connector, with the stand-in while logging in; every connection it gives is {@link GivenBackConnections#wrap wrapped}. */
    static final class Deferring implements Connector {

        private static final long serialVersionUID = 1L;

        private Connector connector;
        private final transient StartWithoutDatabase owner;

        Deferring(Connector connector, StartWithoutDatabase owner) {
            this.connector = connector;
            this.owner = owner;
        }

        @Override
        public Connection connect(Properties properties, Session session) {
            try {
                return GivenBackConnections.wrap(connector.connect(properties, session));
            } catch (DatabaseException unreachable) {
                if (owner.loggingIn != Thread.currentThread() || !DatabaseUnreachable.behind(unreachable)) {
                    throw unreachable;
                }
                anyStartedWithout = true;
                if (owner.startedWithout.compareAndSet(false, true)) {
                    LOG.log(Level.WARNING, "database unreachable at start: starting without it; every use asks for a connection"
                            + " again and works once it answers ({0})", firstLine(unreachable));
                }
                return standIn(firstLine(unreachable));
            }
        }

        @Override
        public Object clone() {
            try {
                Deferring copy = (Deferring) super.clone();
                copy.connector = (Connector) connector.clone();
                return copy;
            } catch (CloneNotSupportedException e) {
                throw new IllegalStateException(e);
            }
        }

        /** The data source's own connector. */
        Connector wrapped() {
            return connector;
        }

        @Override
        public String getConnectionDetails() {
            return connector.getConnectionDetails();
        }

        @Override
        public void toString(PrintWriter writer) {
            connector.toString(writer);
        }
    }

    private static String firstLine(Throwable thrown) {
        Throwable root = thrown;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return String.valueOf(root.getMessage()).lines().findFirst().orElse("");
    }
}
