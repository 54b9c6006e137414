package dev.qaldy.control.it;

import static dev.qaldy.control.it.Api.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.contract.cap.CapState;
import dev.qaldy.contract.cap.CapStates;
import dev.qaldy.control.it.Api.Reply;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.net.URISyntaxException;
import java.net.URL;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Billing and the spending cap in the control plane, on a real Payara Micro: usage batches billed
 * once per batch id, sequences of signed cap states, the owner's cap, sleeps and wakes in the
 * audit log. Prices are the defaults (10 millicents per request, 1 per CPU ms; free allowance
 * 100 cents; default cap 500 cents).
 */
@ExtendWith(ArquillianExtension.class)
class BillingIT {

    static final String PASSWORD = "correct horse battery";
    static final AtomicInteger COUNTER = new AtomicInteger();
    static final String RUN = UUID.randomUUID().toString().substring(0, 6);

    @ArquillianResource
    URL deployed;

    Api api;

    @Deployment(testable = false)
    static WebArchive deployment() {
        return TestCell.prepareAndDeploy();
    }

    @BeforeEach
    void client() throws URISyntaxException {
        api = new Api(deployed.toURI());
    }

    record Person(long id, String email, String token) {
    }

    static String unique(String prefix) {
        return prefix + "-" + RUN + "-" + COUNTER.incrementAndGet();
    }

    Person signUpAndIn() {
        String email = unique("payer") + "@example.com";
        Reply created = api.post("api/v1/people", json("email", email, "password", PASSWORD), null);
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        Reply session = api.post("api/v1/sessions", json("email", email, "password", PASSWORD), null);
        assertThat(session.status()).as(session.toString()).isEqualTo(201);
        return new Person(created.json().getJsonNumber("id").longValue(), email, session.json().getString("token"));
    }

    String createApp(Person owner) {
        String name = unique("app");
        Reply created = api.post("api/v1/apps", json("name", name), owner.token());
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        return name;
    }

    static String batch(UUID id, Object... appRequestsCpu) {
        JsonArrayBuilder items = Json.createArrayBuilder();
        for (int i = 0; i < appRequestsCpu.length; i += 3) {
            items.add(Json.createObjectBuilder().add("app", (String) appRequestsCpu[i])
                    .add("requests", ((Number) appRequestsCpu[i + 1]).longValue())
                    .add("cpuMs", ((Number) appRequestsCpu[i + 2]).longValue()));
        }
        return Json.createObjectBuilder().add("batchId", id.toString()).add("reporter", "gate").add("items", items).build().toString();
    }

    Reply report(String json) {
        return api.internal("POST", "api/v1/internal/usage", json, TestCell.serviceToken());
    }

    CapState stateOf(long account) throws Exception {
        Reply reply = api.internal("GET", "api/v1/internal/cap-states?account=" + account, null, TestCell.serviceToken());
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        List<JsonString> states = reply.json().getJsonArray("states").getValuesAs(JsonString.class);
        assertThat(states).hasSize(1);
        return CapStates.verify(states.get(0).getString(), TestCell.publicKey());
    }

    JsonObject billing(Person person) {
        Reply reply = api.get("api/v1/billing", person.token());
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return reply.json();
    }

    List<String> auditActions(Person person) {
        Reply reply = api.get("api/v1/audit?limit=100", person.token());
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return reply.json().getJsonArray("entries").getValuesAs(JsonObject.class).stream()
                .map(e -> e.getString("action") + " " + e.getString("target")).toList();
    }

    @Test
    void a_retried_usage_batch_is_billed_once_and_gets_the_same_receipt() throws Exception {
        Person ana = signUpAndIn();
        String app = createApp(ana);
        CapState before = stateOf(ana.id());
        assertThat(before.spentMillicents()).isZero();
        assertThat(before.capCents()).as("default cap 500 + free allowance 100").isEqualTo(600);
        assertThat(before.period()).isEqualTo(CapState.periodOf(Instant.now()));

        UUID id = UUID.randomUUID();
        Reply first = report(batch(id, app, 3, 10));
        assertThat(first.status()).as(first.toString()).isEqualTo(200);
        JsonObject receipt = first.json();
        assertThat(receipt.getString("batchId")).isEqualTo(id.toString());
        JsonObject account = receipt.getJsonArray("accounts").getJsonObject(0);
        assertThat(account.getJsonNumber("accountId").longValue()).isEqualTo(ana.id());
        long billedAt = account.getJsonNumber("sequence").longValue();
        assertThat(billedAt).isGreaterThan(before.sequence());

        Reply retried = report(batch(id, app, 3, 10));
        assertThat(retried.status()).isEqualTo(200);
        assertThat(retried.json()).as("the same receipt").isEqualTo(receipt);

        JsonObject view = billing(ana);
        assertThat(view.getJsonNumber("spentMillicents").longValue()).as("3 × 10 + 10 × 1, once").isEqualTo(40);
        JsonObject appUsage = view.getJsonArray("apps").getValuesAs(JsonObject.class).stream()
                .filter(a -> a.getString("app").equals(app)).findFirst().orElseThrow();
        assertThat(appUsage.getJsonNumber("requests").longValue()).isEqualTo(3);
        assertThat(appUsage.getJsonNumber("cpuMs").longValue()).isEqualTo(10);
        CapState after = stateOf(ana.id());
        assertThat(after.sequence()).as("the retry changed nothing").isEqualTo(billedAt);
        assertThat(after.spentMillicents()).isEqualTo(40);
    }

    @Test
    void every_change_takes_a_new_sequence_and_since_lists_exactly_what_changed() throws Exception {
        Person ana = signUpAndIn();
        Person bob = signUpAndIn();
        String anasApp = createApp(ana);
        String bobsApp = createApp(bob);
        long start = stateOf(ana.id()).sequence();
        long bobStart = stateOf(bob.id()).sequence();
        assertThat(bobStart).isGreaterThan(start);

        Reply capped = api.put("api/v1/billing/cap", json("capCents", 250), ana.token());
        assertThat(capped.status()).as(capped.toString()).isEqualTo(200);
        long afterCap = stateOf(ana.id()).sequence();
        assertThat(afterCap).isGreaterThan(bobStart);
        assertThat(stateOf(ana.id()).capCents()).isEqualTo(350);

        Reply both = report(batch(UUID.randomUUID(), anasApp, 1, 0, bobsApp, 2, 0, "no-such-app-" + RUN, 5, 5));
        assertThat(both.status()).isEqualTo(200);
        assertThat(both.json().getJsonArray("unknownApps").getString(0)).startsWith("no-such-app-");
        assertThat(both.json().getJsonArray("accounts")).hasSize(2);
        long anaBilled = stateOf(ana.id()).sequence();
        long bobBilled = stateOf(bob.id()).sequence();
        assertThat(List.of(anaBilled, bobBilled)).allMatch(s -> s > afterCap).doesNotHaveDuplicates();

        Reply since = api.internal("GET", "api/v1/internal/cap-states?since=" + afterCap, null, TestCell.serviceToken());
        assertThat(since.status()).isEqualTo(200);
        List<CapState> changed = since.json().getJsonArray("states").getValuesAs(JsonString.class).stream()
                .map(s -> {
                    try {
                        return CapStates.verify(s.getString(), TestCell.publicKey());
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                }).toList();
        assertThat(changed).extracting(CapState::accountId).contains(ana.id(), bob.id());
        assertThat(changed).extracting(CapState::sequence).isSorted().allMatch(s -> s > afterCap);
        assertThat(since.json().getJsonNumber("next").longValue()).isEqualTo(changed.get(changed.size() - 1).sequence());

        Reply paged = api.internal("GET", "api/v1/internal/cap-states?since=" + afterCap + "&limit=1", null, TestCell.serviceToken());
        assertThat(paged.json().getJsonArray("states")).hasSize(1);
        assertThat(paged.json().getBoolean("more")).isTrue();
    }

    @Test
    void crossing_the_limit_is_audited_as_sleep_and_wake_per_app_and_the_cap_change_too() {
        Person ana = signUpAndIn();
        String app = createApp(ana);
        assertThat(api.put("api/v1/billing/cap", json("capCents", 0), ana.token()).status()).isEqualTo(200);
        JsonObject view = billing(ana);
        assertThat(view.getJsonNumber("limitCents").longValue()).as("0 + the free allowance").isEqualTo(100);
        assertThat(view.getBoolean("asleep")).isFalse();

        assertThat(report(batch(UUID.randomUUID(), app, 9_999, 0)).status()).isEqualTo(200);
        assertThat(billing(ana).getBoolean("asleep")).isFalse();
        assertThat(report(batch(UUID.randomUUID(), app, 1, 0)).status()).isEqualTo(200);
        view = billing(ana);
        assertThat(view.getBoolean("asleep")).as("100,000 millicents = 100 cents reached").isTrue();
        assertThat(view.getJsonNumber("spentCents").longValue()).isEqualTo(100);

        assertThat(api.put("api/v1/billing/cap", json("capCents", 5), ana.token()).status()).isEqualTo(200);
        assertThat(billing(ana).getBoolean("asleep")).isFalse();

        assertThat(auditActions(ana)).anyMatch(a -> a.startsWith("billing.sleep spending cap reached"))
                .anyMatch(a -> a.startsWith("billing.wake under the spending cap again"))
                .anyMatch(a -> a.equals("billing.cap monthly spending cap 500 → 0 cents"))
                .anyMatch(a -> a.equals("billing.cap monthly spending cap 0 → 5 cents"));
    }

    @Test
    void bad_input_and_callers_are_refused() {
        Person ana = signUpAndIn();
        String app = createApp(ana);
        assertThat(api.put("api/v1/billing/cap", json("capCents", -1), ana.token()).status()).isEqualTo(400);
        assertThat(api.put("api/v1/billing/cap", "{\"capCents\":1.5}", ana.token()).status()).isEqualTo(400);
        assertThat(api.put("api/v1/billing/cap", json("capCents", 1), null).status()).isEqualTo(401);
        assertThat(api.get("api/v1/billing", null).status()).isEqualTo(401);

        assertThat(api.internal("POST", "api/v1/internal/usage", batch(UUID.randomUUID(), app, 1, 0), null).status()).isEqualTo(401);
        assertThat(api.internal("GET", "api/v1/internal/cap-states?since=0", null, "wrong-token-0123456789").status()).isEqualTo(401);
        assertThat(report("{\"batchId\":\"not-a-uuid\",\"reporter\":\"gate\",\"items\":[]}").status()).isEqualTo(400);
        assertThat(report(batch(UUID.randomUUID(), "Not An App", 1, 0)).status()).isEqualTo(400);
        assertThat(report(batch(UUID.randomUUID(), app, -1, 0)).status()).isEqualTo(400);
        assertThat(api.internal("GET", "api/v1/internal/cap-states?account=999999999", null, TestCell.serviceToken()).status())
                .isEqualTo(404);
        assertThat(api.internal("GET", "api/v1/internal/cap-states?since=-3", null, TestCell.serviceToken()).status())
                .isEqualTo(400);
    }

    @Test
    void the_access_answer_names_the_account_whose_cap_counts() {
        Person ana = signUpAndIn();
        String app = createApp(ana);
        Reply reply = api.internal("GET", "api/v1/internal/access?app=" + app + "&person=" + ana.id(), null, TestCell.serviceToken());
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().getJsonNumber("accountId").longValue()).isEqualTo(ana.id());
    }
}
