package dev.qaldy.gate.cap;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.qaldy.contract.cap.CapKeeper;
import dev.qaldy.contract.cap.CapState;
import dev.qaldy.contract.cap.CapStates;
import dev.qaldy.contract.cap.CapSync;
import dev.qaldy.contract.cap.Prices;
import dev.qaldy.contract.health.UpstreamHealth;
import dev.qaldy.contract.keys.CellKeys;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The cap step of the hot path: awake (counted), asleep (its own page), unknown (fetched once, else the outage page). */
class CapStepTest {

    static final Instant NOW = Instant.parse("2026-03-14T12:00:00Z");
    final KeyPair cell = CellKeys.generate();
    final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
    final Logger log = Logger.getAnonymousLogger();
    final CapKeeper keeper = new CapKeeper(CellKeys.published(cell), clock, Duration.ofMinutes(2), null, log, 100);
    final AtomicInteger fetches = new AtomicInteger();
    HttpServer control;

    @AfterEach
    void stop() {
        if (control != null) {
            control.stop(0);
        }
    }

    String signed(long account, long capCents, long sequence) {
        return CapStates.sign(new CapState(account, "2026-03", capCents, 0, NOW.toEpochMilli(), new Prices(50, 0),
                NOW.toEpochMilli(), sequence), CellKeys.signing(cell));
    }

    CapStep step(URI controlUrl) {
        CapSync sync = new CapSync(keeper, controlUrl, () -> "token", "gate", Duration.ofSeconds(1), Duration.ofMillis(500), clock, log,
                new UpstreamHealth("control plane", clock, Duration.ofMillis(500), () -> { }, log));
        CapStep step = new CapStep();
        step.log = log;
        step.memory = new CapMemory() {
            @Override
            synchronized Optional<CapSync> ready() {
                return Optional.of(sync);
            }

            @Override
            Optional<CapKeeper> keeper() {
                return Optional.of(keeper);
            }
        };
        return step;
    }

    URI fakeControl(int status, String body) throws Exception {
        control = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 8);
        control.createContext("/", exchange -> {
            fetches.incrementAndGet();
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        control.start();
        return URI.create("http://127.0.0.1:" + control.getAddress().getPort());
    }

    @Test
    void under_the_cap_the_request_goes_on_and_is_counted() throws Exception {
        keeper.offer(signed(7, 1, 3));
        CapStep step = step(URI.create("http://127.0.0.1:9"));
        for (int i = 0; i < 20; i++) {
            FakeExchange exchange = new FakeExchange("GET");
            assertThat(step.admit("guestbook", 7, exchange.request, exchange.response)).isTrue();
            assertThat(exchange.headers).containsEntry(CapStep.HEADER, "awake");
        }
        assertThat(keeper.held().get(0).unbilledRequests()).isEqualTo(20);

        FakeExchange asleep = new FakeExchange("GET", "Accept", "application/json");
        assertThat(step.admit("guestbook", 7, asleep.request, asleep.response)).isFalse();
        assertThat(asleep.status).isEqualTo(503);
        assertThat(asleep.headers).containsEntry(CapStep.HEADER, "asleep")
                .containsEntry("Retry-After", Long.toString(Duration.between(NOW, Instant.parse("2026-04-01T00:00:00Z")).toSeconds()));
        assertThat(asleep.text()).contains("\"type\":\"urn:qaldy:problem:asleep\"").contains("its spending cap was reached");
        assertThat(keeper.held().get(0).unbilledRequests()).as("a refused request is not billed").isEqualTo(20);

        FakeExchange page = new FakeExchange("GET", "Accept", "text/html");
        step.admit("guestbook", 7, page.request, page.response);
        assertThat(page.text()).contains("This app is asleep").doesNotContain("Temporarily unavailable");
    }

    @Test
    void an_account_never_received_is_fetched_once_then_decided() throws Exception {
        CapStep step = step(fakeControl(200, "{\"states\":[\"" + signed(8, 500, 4) + "\"]}"));
        FakeExchange exchange = new FakeExchange("GET");
        assertThat(step.admit("notes", 8, exchange.request, exchange.response)).isTrue();
        assertThat(fetches.get()).isEqualTo(1);
        step.admit("notes", 8, new FakeExchange("GET").request, new FakeExchange("GET").response);
        assertThat(fetches.get()).as("held now: not asked again").isEqualTo(1);
    }

    @Test
    void an_account_that_cannot_be_fetched_gets_the_outage_page_never_a_free_pass() throws Exception {
        for (CapStep step : new CapStep[] {step(URI.create("http://127.0.0.1:9")), step(fakeControl(503, "{}"))}) {
            FakeExchange exchange = new FakeExchange("GET", "Accept", "application/json");
            assertThat(step.admit("notes", 9, exchange.request, exchange.response)).isFalse();
            assertThat(exchange.status).isEqualTo(503);
            assertThat(exchange.headers).containsEntry(CapStep.HEADER, "unknown").containsEntry("Retry-After", "30");
            assertThat(exchange.text()).contains("urn:qaldy:problem:temporarily-unavailable");
        }
        FakeExchange noAccount = new FakeExchange("GET");
        assertThat(step(URI.create("http://127.0.0.1:9")).admit("notes", -1, noAccount.request, noAccount.response)).isFalse();
        assertThat(noAccount.status).isEqualTo(503);
    }

    @Test
    void the_view_shows_what_the_gate_holds() {
        keeper.offer(signed(7, 1, 3));
        keeper.count(7, "guestbook", 4, 0);
        assertThat(CapEndpoint.view(keeper)).contains("\"watermark\":3")
                .contains("\"accountId\":7,\"unbilledRequests\":4,\"unbilledCpuMs\":0,\"unbilledMillicents\":200,\"asleep\":false")
                .contains("\"sequence\":3,\"period\":\"2026-03\",\"capCents\":1");
    }
}
