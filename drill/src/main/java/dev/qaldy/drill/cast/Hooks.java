package dev.qaldy.drill.cast;

import dev.qaldy.drill.cell.DrillError;
import dev.qaldy.drill.cell.Http;
import dev.qaldy.drill.cell.Seen;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** A webhook sender's side: signed deliveries to {@code /hooks/<app>/<hook>} through the gate. */
public final class Hooks {

    private Hooks() {
    }

    /**
     * One attempt of a delivery as a sender makes it: signed now ({@code Qaldy-Signature:
     * t=<unix s>,v1=<hex HMAC-SHA256 of "<t>.<body>">}, Stripe's scheme), with its idempotency key
     * (kept the same on every retry of one delivery).
     */
    public static Seen deliver(Http via, String publicHost, String app, String hook, String secret, String idempotencyKey,
            byte[] body) {
        return via.send(via.request(publicHost, "/hooks/" + app + "/" + hook)
                .header("Content-Type", "application/json")
                .header("Qaldy-Signature", sign(secret, body, Instant.now().getEpochSecond()))
                .header("Idempotency-Key", idempotencyKey)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build());
    }

    /** {@code t=<t>,v1=<hex HMAC-SHA256 of "<t>.<body>" with secret>}. */
    public static String sign(String secret, byte[] body, long t) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update((t + ".").getBytes(StandardCharsets.UTF_8));
            return "t=" + t + ",v1=" + HexFormat.of().formatHex(mac.doFinal(body));
        } catch (java.security.GeneralSecurityException e) {
            throw new DrillError("cannot sign a webhook delivery: " + e.getMessage(), e);
        }
    }
}
