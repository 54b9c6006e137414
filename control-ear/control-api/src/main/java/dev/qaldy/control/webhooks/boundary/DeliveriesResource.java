package dev.qaldy.control.webhooks.boundary;

import dev.qaldy.control.platform.control.InvalidInput;
import dev.qaldy.control.platform.control.PayloadTooLarge;
import dev.qaldy.contract.hooks.HookSignature;
import dev.qaldy.control.webhooks.control.Idempotency;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * {@code POST /api/v1/hooks/{app}/{hook}}: a webhook delivery, as the gate forwards it from
 * {@code /hooks/<app>/<hook>}. No session: the signature is the credential. Body bounded by
 * {@code qaldy.webhooks.max-body-bytes} (413); a signature missing, wrong (always so for an unknown app or hook: no 404 to enumerate hook names by) or
 * timestamped outside {@code qaldy.webhooks.tolerance} → 401 ({@link HookSignature}); a key
 * reused with another body → 409; otherwise 202 {@code {"deliveryId"}}, the same id for a replay.
 */
@Path("hooks/{app}/{hook}")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class DeliveriesResource {

    @Inject
    Hooks hooks;

    @Inject
    @ConfigProperty(name = "qaldy.webhooks.max-body-bytes", defaultValue = "262144")
    int maxBodyBytes;

    @POST
    public Response deliver(@PathParam("app") String app, @PathParam("hook") String hook,
            @HeaderParam(HttpHeaders.CONTENT_LENGTH) String contentLength,
            @HeaderParam(HookSignature.HEADER) String signature,
            @HeaderParam(HookSignature.OLD_HEADER) String oldSignature,
            @HeaderParam("Idempotency-Key") String idempotencyKey,
            @HeaderParam("X-Qaldy-Delivery") String deliveryHeader,
            InputStream body) {
        if (contentLength != null && declaredTooLarge(contentLength)) {
            throw tooLarge();
        }
        byte[] bytes;
        try {
            bytes = body == null ? new byte[0] : body.readNBytes(maxBodyBytes + 1);
        } catch (IOException e) {
            throw new InvalidInput("the body could not be read");
        }
        if (bytes.length > maxBodyBytes) {
            throw tooLarge();
        }
        String key = Idempotency.key(idempotencyKey, deliveryHeader);
        Hooks.Received received = hooks.receive(app, hook, bytes, signature, oldSignature, key);
        return Response.accepted(Map.of("deliveryId", received.deliveryId()))
                .header("X-Qaldy-Replayed", Boolean.toString(received.replayed())).build();
    }

    private boolean declaredTooLarge(String contentLength) {
        try {
            return Long.parseLong(contentLength.trim()) > maxBodyBytes;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private PayloadTooLarge tooLarge() {
        return new PayloadTooLarge("webhook bodies are limited to " + maxBodyBytes + " bytes");
    }
}
