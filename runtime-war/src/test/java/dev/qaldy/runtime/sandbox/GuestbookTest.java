package dev.qaldy.runtime.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.runtime.bundles.control.BundleUnpacker;
import dev.qaldy.runtime.bundles.entity.Bundle;
import dev.qaldy.runtime.bundles.entity.BundleFile;
import dev.qaldy.runtime.bundles.entity.BundleKey;
import dev.qaldy.runtime.sandbox.control.Sandbox;
import dev.qaldy.runtime.sandbox.entity.HandlerOutcome;
import dev.qaldy.runtime.sandbox.entity.HandlerOutcome.Answered;
import dev.qaldy.runtime.sandbox.entity.HandlerRequest;
import dev.qaldy.runtime.testing.FakeDataApi;
import dev.qaldy.runtime.testing.TestBundles;
import dev.qaldy.runtime.testing.TestCredentials;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The sample app's own server.js, as uploaded from examples/guestbook, run in the sandbox; its notes live in the data API. */
class GuestbookTest {

    static final Path GUESTBOOK = Path.of("..", "examples", "guestbook");

    final FakeDataApi api = new FakeDataApi();
    final Sandbox sandbox = api.sandbox(1000, 1000);
    final Bundle guestbook = unpack();

    @AfterEach
    void stop() {
        api.close();
    }

    static Bundle unpack() {
        byte[] zip = TestBundles.zipFolder(GUESTBOOK);
        return BundleUnpacker.unpack(new BundleKey("guestbook", 1), BundleFile.sha256Hex(zip), zip, TestBundles.NOW);
    }

    HandlerOutcome sign(String json) {
        return sandbox.handle(guestbook, new HandlerRequest("POST", "/api/sign", Map.of(),
                Map.of("content-type", "application/json"), json, "ada@example.com"), TestCredentials.grant(guestbook.key().app()));
    }

    static JsonObject json(HandlerOutcome outcome) {
        assertThat(outcome).isInstanceOf(Answered.class);
        String text = new String(((Answered) outcome).body(), StandardCharsets.UTF_8);
        return Json.createReader(new StringReader(text)).readObject();
    }

    static int status(HandlerOutcome outcome) {
        return ((Answered) outcome).status();
    }

    @Test
    void the_bundle_has_its_page_and_its_handler() {
        assertThat(guestbook.handlerPath()).contains("server.js");
        assertThat(guestbook.file("public/index.html")).isPresent();
        assertThat(guestbook.file("public/app.js")).isPresent();
        assertThat(guestbook.file("public/style.css")).isPresent();
        assertThat(guestbook.file("public/index.html").orElseThrow().text()).contains("<title>Guestbook</title>");
    }

    @Test
    void a_valid_note_is_signed_and_listed_newest_first() {
        HandlerOutcome first = sign("{\"name\":\"  Ada \",\"message\":\"Hello <b>there</b>\"}");
        assertThat(status(first)).isEqualTo(200);
        JsonObject answer = json(first);
        assertThat(answer.getString("message")).isEqualTo("Thanks, Ada! Your note was signed.");
        assertThat(answer.getJsonObject("entry").getString("name")).isEqualTo("Ada");
        assertThat(answer.getJsonObject("entry").getString("message")).isEqualTo("Hello <b>there</b>");
        assertThat(answer.getJsonObject("entry").getString("at")).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
        assertThat(status(sign("{\"name\":\"Grace\",\"message\":\"Second\"}"))).isEqualTo(200);

        JsonObject entries = json(sandbox.handle(guestbook,
                new HandlerRequest("GET", "/api/entries", Map.of(), Map.of(), "", null), TestCredentials.grant(guestbook.key().app())));
        assertThat(entries.getJsonArray("entries")).hasSize(2);
        assertThat(entries.getJsonArray("entries").getJsonObject(0).getString("name")).isEqualTo("Grace");
    }

    @Test
    void invalid_notes_get_400_with_a_message() {
        String longMessage = "m".repeat(501);
        for (String body : new String[] {"{\"name\":\"\",\"message\":\"hi\"}", "{\"name\":\"   \",\"message\":\"hi\"}",
                "{\"name\":\"" + "n".repeat(81) + "\",\"message\":\"hi\"}", "{\"name\":\"Ada\",\"message\":\"" + longMessage + "\"}",
                "{\"name\":\"Ada\"}", "{\"name\":42,\"message\":\"hi\"}", "not json", "[1,2]"}) {
            HandlerOutcome outcome = sign(body);
            assertThat(status(outcome)).as(body).isEqualTo(400);
            assertThat(json(outcome).getString("error")).as(body).isNotBlank();
        }
        JsonObject entries = json(sandbox.handle(guestbook,
                new HandlerRequest("GET", "/api/entries", Map.of(), Map.of(), "", null), TestCredentials.grant(guestbook.key().app())));
        assertThat(entries.getJsonArray("entries")).isEmpty();
    }

    @Test
    void the_longest_allowed_note_is_accepted() {
        assertThat(status(sign("{\"name\":\"" + "n".repeat(80) + "\",\"message\":\"" + "m".repeat(500) + "\"}")))
                .isEqualTo(200);
    }

    @Test
    void notes_are_records_of_the_data_api_and_while_it_is_down_reading_is_the_apps_own_503_and_signing_the_platforms() {
        assertThat(status(sign("{\"name\":\"Ada\",\"message\":\"kept\"}"))).isEqualTo(200);
        assertThat(api.calls).extracting(FakeDataApi.Call::target).containsExactly("/api/v1/internal/app-data/guestbook/entries");

        api.down(503);
        HandlerOutcome reading = sandbox.handle(guestbook, new HandlerRequest("GET", "/api/entries", Map.of(), Map.of(), "", null), TestCredentials.grant(guestbook.key().app()));
        assertThat(status(reading)).isEqualTo(503);
        assertThat(json(reading).getString("error")).contains("cannot read its notes right now");
        assertThat(((Answered) reading).headers()).anyMatch(h -> h.name().equals("Retry-After"));
        assertThat(sign("{\"name\":\"Ada\",\"message\":\"lost?\"}")).isInstanceOf(HandlerOutcome.DataUnavailable.class);

        api.up();
        JsonObject entries = json(sandbox.handle(guestbook, new HandlerRequest("GET", "/api/entries", Map.of(), Map.of(), "", null), TestCredentials.grant(guestbook.key().app())));
        assertThat(entries.getJsonArray("entries")).hasSize(1);
    }
}
