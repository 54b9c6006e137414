package dev.qaldy.control.schedules.control;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.qaldy.contract.keys.ServiceDirection;
import dev.qaldy.control.platform.control.ServiceKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * Issue 14, found by the soak: webhooks answered 202 whose runs were sent while the runtime host
 * restarted failed with "could not be reached", so an accepted delivery never ran. A run whose
 * runtime host cannot be reached (the handler never started) goes back to the queue; one the runtime
 * host took and answered with an error fails, never sent twice.
 */
class RunDeliveryTest {

    /** One claimable run, and what the dispatcher did with it. */
    static final class OneRun extends RunQueue {
        final Map<Long, String> undelivered = new ConcurrentHashMap<>();
        final Map<Long, List<String>> finished = new ConcurrentHashMap<>();

        @Override
        public Optional<String> pendingApp(long runId) {
            return Optional.of("notes");
        }

        @Override
        public Optional<Claimed> claim(long runId, long token) {
            return Optional.of(new Claimed(runId, "notes", "tidy", Instant.parse("2026-12-02T05:31:59Z"), "webhook", "{}"));
        }

        @Override
        public boolean undelivered(long runId, String why, Duration maxAge) {
            undelivered.put(runId, why);
            return true;
        }

        @Override
        public void finish(long runId, boolean succeeded, List<String> log) {
            finished.put(runId, log);
        }
    }

    /** The control plane's credentials, in a folder of their own. */
    private static ServiceKeys keys() {
        try {
            Path dir = Files.createTempDirectory("run-delivery-keys");
            dir.toFile().deleteOnExit();
            for (ServiceDirection direction : ServiceDirection.values()) {
                Files.writeString(dir.resolve(direction.fileName()), direction.fileName() + "-secret-for-tests\n").toFile().deleteOnExit();
            }
            return new ServiceKeys(dir, Logger.getLogger(RunDeliveryTest.class.getName()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static RunDispatcher dispatcher(OneRun queue, String runtimeUrl) {
        RunDispatcher dispatcher = new RunDispatcher();
        dispatcher.queue = queue;
        dispatcher.admission = new RunAdmission() {
            @Override
            public boolean mayRun(String app) {
                return true;
            }
        };
        dispatcher.keys = keys();
        dispatcher.runtimeUrl = runtimeUrl;
        dispatcher.jobTimeout = Duration.ofSeconds(5);
        dispatcher.undeliveredMaxAge = Duration.ofHours(1);
        dispatcher.clock = Clock.systemUTC();
        dispatcher.log = Logger.getLogger(RunDeliveryTest.class.getName());
        dispatcher.start();
        return dispatcher;
    }

    @Test
    void a_runtime_host_that_refuses_the_connection_leaves_the_run_queued_not_failed() throws IOException {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        OneRun queue = new OneRun();
        dispatcher(queue, "http://127.0.0.1:" + closed).dispatch(716);
        assertThat(queue.finished).as("not failed: the handler never started").isEmpty();
        assertThat(queue.undelivered).containsOnlyKeys(716L);
        assertThat(queue.undelivered.get(716L)).contains("could not be reached").contains("ConnectException");
    }

    @Test
    void a_runtime_host_that_took_the_run_and_answered_an_error_fails_it() throws IOException {
        HttpServer runtime = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 4);
        runtime.createContext("/", ex -> {
            byte[] body = "{\"status\":500,\"detail\":\"the handler threw\"}".getBytes();
            ex.getResponseHeaders().add("Content-Type", "application/problem+json");
            ex.sendResponseHeaders(500, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        runtime.start();
        try {
            OneRun queue = new OneRun();
            dispatcher(queue, "http://127.0.0.1:" + runtime.getAddress().getPort()).dispatch(717);
            assertThat(queue.undelivered).isEmpty();
            assertThat(queue.finished.get(717L)).singleElement().asString().contains("HTTP 500").contains("the handler threw");
        } finally {
            runtime.stop(0);
        }
    }
}
