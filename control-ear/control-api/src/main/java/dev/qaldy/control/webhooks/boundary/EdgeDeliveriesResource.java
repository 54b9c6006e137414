package dev.qaldy.control.webhooks.boundary;

import dev.qaldy.contract.hooks.HookSignature;
import dev.qaldy.contract.keys.ServiceDirection;
import dev.qaldy.control.platform.boundary.ServiceCall;
import dev.qaldy.control.platform.control.InvalidInput;
import dev.qaldy.control.platform.control.PayloadTooLarge;
import dev.qaldy.control.webhooks.control.Idempotency;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * {@code POST /api/v1/internal/hook-deliveries/{app}/{hook}} (gate-to-control credential): a delivery
 * a gate checked and queued while the API could not be asked, handed over now (issue 17). The raw
 * body, {@code Qaldy-Signature} and {@code Idempotency-Key} as the sender sent them,
 * {@code X-Qaldy-Delivery-Id} (the id the gate told the sender) and {@code X-Qaldy-Received-At}
 * (epoch ms). → 202 {@code {"deliveryId","replayed"}} (a replay is the delivery already recorded);
 * 410 hook gone, 401 not signed with the secret in force at receipt, 409 key reused with another body:
 * the gate drops it. With {@code X-Qaldy-Expired: true}: the gate dropped it for its age; 204, an audit line.
 */
@Path("internal/hook-deliveries/{app}/{hook}")
@ServiceCall(ServiceDirection.GATE_TO_CONTROL)
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class EdgeDeliveriesResource {

    /** The answer: the id the delivery is recorded under, and whether it was recorded before. */
    public record HandedOver(String deliveryId, boolean replayed) {
    }

    private static final Pattern UUID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    @Inject
    EdgeHandOvers handOvers;

    @Inject
    @ConfigProperty(name = "qaldy.webhooks.max-body-bytes", defaultValue = "262144")
    int maxBodyBytes;

    @POST
    public Response handOver(@PathParam("app") String app, @PathParam("hook") String hook,
            @HeaderParam(HookSignature.HEADER) String signature, @HeaderParam("Idempotency-Key") String idempotencyKey,
            @HeaderParam("X-Qaldy-Delivery-Id") String deliveryId, @HeaderParam("X-Qaldy-Received-At") String receivedAt,
            @HeaderParam("X-Qaldy-Expired") String expired, InputStream body) {
        if (deliveryId == null || !UUID.matcher(deliveryId).matches()) {
            throw new InvalidInput("X-Qaldy-Delivery-Id must be the UUID the gate told the sender");
        }
        Instant received = epochMillis(receivedAt);
        if ("true".equals(expired)) {
            handOvers.expired(app, hook, deliveryId, received);
            return Response.noContent().build();
        }
        byte[] bytes;
        try {
            bytes = body == null ? new byte[0] : body.readNBytes(maxBodyBytes + 1);
        } catch (IOException e) {
            throw new InvalidInput("the body could not be read");
        }
        if (bytes.length > maxBodyBytes) {
            throw new PayloadTooLarge("webhook bodies are limited to " + maxBodyBytes + " bytes");
        }
        Hooks.Received outcome = handOvers.handOver(app, hook, bytes, signature, Idempotency.key(idempotencyKey, null), deliveryId,
                received);
        return Response.accepted(new HandedOver(outcome.deliveryId(), outcome.replayed()))
                .header("X-Qaldy-Replayed", Boolean.toString(outcome.replayed())).build();
    }

    private static Instant epochMillis(String value) {
        try {
            long ms = Long.parseLong(value == null ? "" : value.trim());
            if (ms > 0) {
                return Instant.ofEpochMilli(ms);
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new InvalidInput("X-Qaldy-Received-At must be the receipt time in epoch milliseconds");
    }
}
