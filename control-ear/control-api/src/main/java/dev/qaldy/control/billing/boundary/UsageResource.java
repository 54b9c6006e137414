package dev.qaldy.control.billing.boundary;

import dev.qaldy.contract.keys.ServiceDirection;
import dev.qaldy.control.billing.entity.UsageReport;
import dev.qaldy.control.platform.boundary.JsonBody;
import dev.qaldy.control.platform.boundary.ServiceCall;
import dev.qaldy.control.platform.control.InvalidInput;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.persistence.PersistenceException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * {@code POST /api/v1/internal/usage}: usage from the gate and the runtime host (service token).
 * Body {@code {"batchId":"<UUID>","reporter":"gate","items":[{"app":"A","requests":N,"cpuMs":M}]}};
 * answers 200 with the receipt {@code {"batchId","accounts":[{"accountId","sequence"}],"unknownApps":[…]}},
 * the same receipt for a batch sent again, which is never billed twice.
 */
@Path("internal/usage")
@ServiceCall({ServiceDirection.GATE_TO_CONTROL, ServiceDirection.RUNTIME_TO_CONTROL})
@RequestScoped
public class UsageResource {

    @Inject
    Billing billing;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response report(InputStream body) {
        UsageReport report = read(JsonBody.read(body));
        String receipt;
        try {
            receipt = billing.bill(report);
        } catch (PersistenceException | jakarta.transaction.TransactionalException raced) {
            // Two sends of one batch at once: the loser's insert of the batch id failed; the winner's receipt stands.
            receipt = billing.bill(report);
        }
        return Response.ok(receipt, MediaType.APPLICATION_JSON).header("Cache-Control", "no-store").build();
    }

    static UsageReport read(JsonBody body) {
        UUID batchId;
        try {
            batchId = UUID.fromString(body.text("batchId"));
        } catch (IllegalArgumentException e) {
            throw new InvalidInput("\"batchId\" must be a UUID");
        }
        JsonValue items = body.json().get("items");
        if (items == null || items.getValueType() != JsonValue.ValueType.ARRAY) {
            throw new InvalidInput("\"items\" is required and must be a list");
        }
        if (items.asJsonArray().size() > UsageReport.MAX_ITEMS) {
            throw new InvalidInput("\"items\" must be a list of at most " + UsageReport.MAX_ITEMS + " lines");
        }
        List<UsageReport.Item> lines = new ArrayList<>();
        for (JsonValue item : items.asJsonArray()) {
            if (item.getValueType() != JsonValue.ValueType.OBJECT) {
                throw new InvalidInput("every line of \"items\" must be an object {app, requests, cpuMs}");
            }
            JsonObject line = item.asJsonObject();
            lines.add(new UsageReport.Item(line.get("app") instanceof JsonString app ? app.getString() : null,
                    count(line, "requests"), count(line, "cpuMs")));
        }
        return new UsageReport(batchId, body.text("reporter"), lines);
    }

    private static long count(JsonObject line, String field) {
        JsonValue value = line.get(field);
        if (value == null) {
            return 0;
        }
        if (!(value instanceof JsonNumber number) || !number.isIntegral()) {
            throw new InvalidInput("\"" + field + "\" must be a whole number");
        }
        try {
            return number.longValueExact();
        } catch (ArithmeticException e) {
            throw new InvalidInput("\"" + field + "\" is out of range");
        }
    }
}
