package dev.qaldy.control.platform.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.util.Properties;
import org.eclipse.persistence.exceptions.DatabaseException;
import org.eclipse.persistence.sessions.Connector;
import org.eclipse.persistence.sessions.DatabaseLogin;
import org.eclipse.persistence.sessions.DatabaseSession;
import org.eclipse.persistence.sessions.Project;
import org.eclipse.persistence.sessions.Session;
import org.eclipse.persistence.sessions.SessionEvent;
import org.junit.jupiter.api.Test;

/** On a real EclipseLink session with a connector that answers as the test says; no database. */
class StartWithoutDatabaseTest {

    final StartWithoutDatabase listener = new StartWithoutDatabase();
    final Answering connector = new Answering();
    final DatabaseSession session;

    StartWithoutDatabaseTest() {
        DatabaseLogin login = new DatabaseLogin();
        login.setConnector(connector);
        session = new Project(login).createDatabaseSession();
        session.getEventManager().addListener(listener);
    }

    @Test
    void while_logging_in_an_unreachable_database_gives_a_stand_in_that_refuses_every_use_but_close() throws Exception {
        connector.fails = DatabaseException.sqlException(new SQLNonTransientConnectionException("Connection refused", "08001"));
        listener.preLogin(new SessionEvent(SessionEvent.PreLogin, session));

        Connection standIn = connectThroughLogin();
        standIn.close();
        assertThatThrownBy(() -> standIn.prepareStatement("SELECT 1")).isInstanceOf(SQLNonTransientConnectionException.class)
                .hasMessageContaining("Connection refused");
        assertThat(DatabaseUnreachable.behind(catching(() -> standIn.createStatement()))).isTrue();
        assertThat(listener.startedWithoutDatabase()).isTrue();
        assertThat(StartWithoutDatabase.anyStartedWithoutDatabase()).isTrue();
    }

    @Test
    void after_the_login_the_same_failure_is_thrown_as_before() {
        connector.fails = DatabaseException.sqlException(new SQLNonTransientConnectionException("Connection refused", "08001"));
        listener.preLogin(new SessionEvent(SessionEvent.PreLogin, session));
        listener.postLogin(new SessionEvent(SessionEvent.PostLogin, session));

        assertThatThrownBy(this::connectThroughLogin).isSameAs(connector.fails);
        assertThat(listener.startedWithoutDatabase()).isFalse();
    }

    @Test
    void while_logging_in_a_failure_that_is_not_an_unreachable_database_is_thrown() {
        connector.fails = DatabaseException.sqlException(new SQLException("Wrong user name or password", "28000"));
        listener.preLogin(new SessionEvent(SessionEvent.PreLogin, session));

        assertThatThrownBy(this::connectThroughLogin).isSameAs(connector.fails);
        assertThat(listener.startedWithoutDatabase()).isFalse();
    }

    @Test
    void a_database_that_answers_gives_its_own_connection_and_each_copy_of_the_login_keeps_the_rule() throws Exception {
        listener.preLogin(new SessionEvent(SessionEvent.PreLogin, session));
        DatabaseLogin copy = (DatabaseLogin) session.getDatasourceLogin().clone();

        Connection given = connectThroughLogin();
        assertThat(given.toString()).as("the data source's own connection").isEqualTo(connector.connection.toString());
        assertThat(given).as("wrapped, so EclipseLink gives it back to the pool (GivenBackConnections)").isNotSameAs(connector.connection);
        assertThat(GivenBackConnections.wrap(given)).isSameAs(given);
        assertThat(copy.getConnector()).isInstanceOf(StartWithoutDatabase.Deferring.class);
        connector.fails = DatabaseException.sqlException(new SQLNonTransientConnectionException("Connection refused", "08001"));
        assertThat(copy.getConnector().connect(new Properties(), session).toString()).contains("database unreachable at start");
        assertThat(listener.startedWithoutDatabase()).isTrue();
    }

    private Connection connectThroughLogin() {
        return ((DatabaseLogin) session.getDatasourceLogin()).getConnector().connect(new Properties(), session);
    }

    private static Throwable catching(ThrowingCall call) {
        try {
            call.run();
            return null;
        } catch (Throwable thrown) {
            return thrown;
        }
    }

    interface ThrowingCall {
        void run() throws Exception;
    }

    /** A connector that throws {@link #fails} when set, else returns {@link #connection}; its copies share both. */
    static final class Answering implements Connector {
        private static final long serialVersionUID = 1L;
        transient volatile DatabaseException fails;
        final transient Connection connection = (Connection) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> method.getName().equals("toString") ? "real" : null);

        @Override
        public Connection connect(Properties properties, Session session) {
            if (fails != null) {
                throw fails;
            }
            return connection;
        }

        @Override
        public Object clone() {
            return this;
        }

        @Override
        public void toString(PrintWriter writer) {
            writer.print("answering");
        }

        @Override
        public String getConnectionDetails() {
            return "answering";
        }
    }
}
