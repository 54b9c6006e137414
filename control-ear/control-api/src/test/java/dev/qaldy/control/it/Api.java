package dev.qaldy.control.it;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublisher;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/** A small HTTP client for the control plane's API, as the console, the gate and the runtime host use it. */
final class Api {

    /** One answer. */
    record Reply(int status, java.net.http.HttpHeaders headers, byte[] body) {

        JsonObject json() {
            return Json.createReader(new ByteArrayInputStream(body)).readObject();
        }

        JsonArray array() {
            return Json.createReader(new ByteArrayInputStream(body)).readArray();
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        String header(String name) {
            return headers.firstValue(name).orElse(null);
        }

        @Override
        public String toString() {
            return status + " " + text();
        }
    }

    private final URI base;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1).build();

    Api(URI base) {
        this.base = base;
    }

    /**
     * Signs up a new person ({@code prefix}-…@example.com), signs in and sets a cap of 600 cents, so the
     * billing row exists; the session token.
     */
    String personWithCap(String prefix) {
        String email = prefix + "-" + java.util.UUID.randomUUID().toString().substring(0, 8) + "@example.com";
        org.assertj.core.api.Assertions.assertThat(post("api/v1/people", json("email", email, "password", "correct horse battery"), null)
                .status()).isEqualTo(201);
        String token = post("api/v1/sessions", json("email", email, "password", "correct horse battery"), null).json().getString("token");
        org.assertj.core.api.Assertions.assertThat(put("api/v1/billing/cap", "{\"capCents\":600}", token).status())
                .as("billing works, the row exists").isEqualTo(200);
        return token;
    }

    URI base() {
        return base;
    }

    static String json(Object... keysAndValues) {
        JsonObjectBuilder object = Json.createObjectBuilder();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            Object value = keysAndValues[i + 1];
            if (value instanceof Number number) {
                object.add((String) keysAndValues[i], number.longValue());
            } else {
                object.add((String) keysAndValues[i], (String) value);
            }
        }
        return object.build().toString();
    }

    Reply get(String path, String token) {
        return send(request(path, token).GET());
    }

    Reply delete(String path, String token) {
        return send(request(path, token).DELETE());
    }

    Reply post(String path, String json, String token) {
        return send(request(path, token).header("Content-Type", "application/json").POST(BodyPublishers.ofString(json)));
    }

    /**
     * A POST as the cell's gate forwards it for the client at {@code forwardedFor}: sent from
     * loopback (a trusted proxy by default), whatever host the deployment's URL names.
     */
    Reply postFrom(String forwardedFor, String path, String json) {
        URI loopback = URI.create(base.getScheme() + "://127.0.0.1:" + base.getPort() + base.getRawPath()).resolve(path);
        return send(HttpRequest.newBuilder(loopback).timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                .header("X-Forwarded-For", forwardedFor).POST(BodyPublishers.ofString(json)));
    }

    Reply put(String path, String json, String token) {
        return send(request(path, token).header("Content-Type", "application/json").PUT(BodyPublishers.ofString(json)));
    }

    Reply upload(String path, BodyPublisher zip, String token) {
        return send(request(path, token).header("Content-Type", "application/zip").POST(zip));
    }

    /** A service call, with the service token header when {@code serviceToken} is not null. */
    Reply internal(String method, String path, String json, String serviceToken) {
        HttpRequest.Builder request = request(path, null);
        if (serviceToken != null) {
            request.header("X-Qaldy-Service-Token", serviceToken);
        }
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        return send(request.method(method, json == null ? BodyPublishers.noBody() : BodyPublishers.ofString(json)));
    }

    Reply send(String path, Map<String, String> headers, String method, BodyPublisher body) {
        HttpRequest.Builder request = request(path, null);
        headers.forEach(request::header);
        return send(request.method(method, body));
    }

    private HttpRequest.Builder request(String path, String token) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(30));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return request;
    }

    private Reply send(HttpRequest.Builder request) {
        try {
            var response = http.send(request.build(), BodyHandlers.ofByteArray());
            return new Reply(response.statusCode(), response.headers(), response.body());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
