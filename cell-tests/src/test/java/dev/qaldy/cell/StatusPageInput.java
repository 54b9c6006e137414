package dev.qaldy.cell;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;

/**
 * The status page's JSON inputs on a real cell's status page (Payara Micro's Jersey or Liberty's
 * RESTEasy): a body that is not a JSON object is a 400 problem ({@code urn:qaldy:status:bad-json})
 * with a clear message and no stack trace, never a 500; nothing is lost (the operator still signs
 * in with the right password afterwards: bad JSON is not a failed sign-in).
 */
final class StatusPageInput {

    private StatusPageInput() {
    }

    static void badJsonIsA400AndNothingIsLost(Cell cell) throws Exception {
        String[][] inputs = {
            {"/api/operator/session", "{bad"},
            {"/api/operator/session", "[\"operator\"]"},
            {"/api/operator/session", ""},
            {"/api/operator/incidents", "{\"name\":\"x\","},
            {"/api/operator/incidents/1/updates", "{\"status\":"},
            {"/api/operator/incidents/1/resolve", "not json"}};
        for (int i = 0; i < 6; i++) {   // more than the sign-in throttle allows, were these failed sign-ins
            for (String[] input : inputs) {
                HttpResponse<String> answer = post(cell, input[0], input[1]);
                assertThat(answer.statusCode()).as(input[0] + " " + input[1] + ": " + answer.body()).isEqualTo(400);
                assertThat(answer.headers().firstValue("Content-Type")).get().asString().contains("problem+json");
                // An empty body may reach the resource as no object at all: its own 400 "Send a JSON object."
                assertThat(answer.body()).containsPattern(input[1].isEmpty() ? "urn:qaldy:status:bad-(json|request)"
                        : "urn:qaldy:status:bad-json").contains("JSON object").doesNotContain("Exception").doesNotContain("at dev.");
            }
        }
        String password = Files.readAllLines(cell.var().resolve("status/operator-password")).get(0).strip();
        HttpResponse<String> signedIn = post(cell, "/api/operator/session",
                "{\"user\":\"operator\",\"password\":\"" + password.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}");
        assertThat(signedIn.statusCode()).as(signedIn.body()).isEqualTo(200);
        assertThat(signedIn.body()).contains("csrf_token");
    }

    private static HttpResponse<String> post(Cell cell, String path, String body) throws Exception {
        return cell.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + cell.port("status") + path))
                .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }
}
