package dev.qaldy.control.platform.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import org.h2.tools.Server;
import org.junit.jupiter.api.Test;

class GivenBackConnectionsTest {

    @Test
    void a_connection_whose_database_died_still_says_open_until_it_is_closed_so_it_is_given_back() throws Exception {
        Server server = Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start();
        Connection raw;
        Connection held;
        try {
            raw = DriverManager.getConnection("jdbc:h2:tcp://127.0.0.1:" + server.getPort() + "/mem:given-back", "sa", "");
            held = GivenBackConnections.wrap(raw);
            assertThat(held.createStatement().executeQuery("SELECT 1").next()).isTrue();
        } finally {
            server.stop(); // the database dies under the connection
        }
        assertThatThrownBy(() -> held.createStatement().executeQuery("SELECT 1")).isInstanceOf(SQLException.class);
        assertThat(raw.isClosed()).as("H2's client: closed once its database is gone").isTrue();
        assertThat(held.isClosed()).as("so EclipseLink still calls close()").isFalse();
        held.close();
        assertThat(held.isClosed()).isTrue();
        assertThat(GivenBackConnections.wrap(held)).isSameAs(held);
    }
    @Test
    void a_handle_not_given_back_is_listed_with_the_thread_and_the_code_that_took_it_until_it_is_closed() throws Exception {
        Connection raw = DriverManager.getConnection("jdbc:h2:mem:listed", "sa", "");
        Connection held = GivenBackConnections.wrap(raw);
        try {
            String thread = Thread.currentThread().getName();
            assertThat(GivenBackConnections.heldLongerThan(Duration.ofHours(1))).as("not old enough").noneMatch(l -> l.contains(thread));
            assertThat(GivenBackConnections.heldLongerThan(Duration.ZERO))
                    .anyMatch(l -> l.contains(" by " + thread + " at GivenBackConnectionsTest.a_handle_not_given_back"));
            held.close();
            assertThat(GivenBackConnections.heldLongerThan(Duration.ZERO)).noneMatch(l -> l.contains("a_handle_not_given_back"));
        } finally {
            raw.close();
        }
    }
}
