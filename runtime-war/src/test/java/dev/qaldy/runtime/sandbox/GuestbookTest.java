package dev.qaldy.runtime.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.runtime.bundles.control.BundleUnpacker;
import dev.qaldy.runtime.bundles.entity.Bundle;
import dev.qaldy.runtime.bundles.entity.BundleFile;
import dev.qaldy.runtime.bundles.entity.BundleKey;
import dev.qaldy.runtime.sandbox.control.AppStore;
import dev.qaldy.runtime.sandbox.control.Sandbox;
import dev.qaldy.runtime.sandbox.entity.HandlerOutcome;
import dev.qaldy.runtime.sandbox.entity.HandlerOutcome.Answered;
import dev.qaldy.runtime.sandbox.entity.HandlerRequest;
import dev.qaldy.runtime.testing.TestBundles;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/** The sample app's own server.js, as uploaded from examples/guestbook, run in the sandbox. */
class GuestbookTest {

    static final Path GUESTBOOK = Path.of("..", "examples", "guestbook");

    final Sandbox sandbox = new Sandbox(1000, 128L * 1024 * 1024, new AppStore(1 << 20),
            Logger.getLogger(GuestbookTest.class.getName()));
    final Bundle guestbook = unpack();

    static Bundle unpack() {
        byte[] zip = TestBundles.zipFolder(GUESTBOOK);
        return BundleUnpacker.unpack(new BundleKey("guestbook", 1), BundleFile.sha256Hex(zip), zip, TestBundles.NOW);
    }

    HandlerOutcome sign(String json) {
        return sandbox.handle(guestbook, new HandlerRequest("POST", "/api/sign", Map.of(),
                Map.of("content-type", "application/json"), json, "ada@example.com"));
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
                new HandlerRequest("GET", "/api/entries", Map.of(), Map.of(), "", null)));
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
                new HandlerRequest("GET", "/api/entries", Map.of(), Map.of(), "", null)));
        assertThat(entries.getJsonArray("entries")).isEmpty();
    }

    @Test
    void the_longest_allowed_note_is_accepted() {
        assertThat(status(sign("{\"name\":\"" + "n".repeat(80) + "\",\"message\":\"" + "m".repeat(500) + "\"}")))
                .isEqualTo(200);
    }
}
