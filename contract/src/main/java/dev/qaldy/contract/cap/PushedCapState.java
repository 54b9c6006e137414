package dev.qaldy.contract.cap;

import jakarta.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * The answer of the gate and of the runtime host to a cap state the control plane pushes
 * ({@value #PATH}, the body a compact JWS of at most {@link CapStates#MAX_LENGTH} characters), offered
 * to the keeper like a fetched one: 200 {@code {"result":"accepted"|"already-held","sequence":N}};
 * 400 {@code bad-request} for a longer body; 409 {@code cap-state-refused} naming why in
 * {@value #REFUSAL_HEADER} (the last good state stays). Each side writes it with its own pages.
 *
 * @param status  200, 400 or 409
 * @param json    the 200's body; null otherwise
 * @param refusal the 409's {@link CapKeeper.Refusal#slug()}; null otherwise
 * @param detail  the problem's sentence; null for a 200
 */
public record PushedCapState(int status, String json, String refusal, String detail) {

    public static final String PATH = "/.qaldy/internal/cap-states";
    public static final String REFUSAL_HEADER = "X-Qaldy-Cap-Refusal";

    /**
     * Reads {@code body} and offers it to {@code keeper}.
     *
     * @param holder who refuses, in the 409's sentence ({@code gate}, {@code runtime host})
     */
    public static PushedCapState offer(CapKeeper keeper, InputStream body, String holder) throws IOException {
        byte[] bytes = body.readNBytes(CapStates.MAX_LENGTH + 1);
        if (bytes.length > CapStates.MAX_LENGTH) {
            return new PushedCapState(400, null, null, "A cap state is a compact JWS of at most " + CapStates.MAX_LENGTH + " characters.");
        }
        CapKeeper.Offer offer = keeper.offer(new String(bytes, StandardCharsets.US_ASCII).trim());
        if (offer instanceof CapKeeper.Offer.Accepted accepted) {
            return taken("accepted", accepted.state().sequence());
        }
        if (offer instanceof CapKeeper.Offer.AlreadyHeld held) {
            return taken("already-held", held.state().sequence());
        }
        String slug = ((CapKeeper.Offer.Refused) offer).reason().slug();
        return new PushedCapState(409, null, slug, "The " + holder + " refused this cap state (" + slug + ") and keeps the one it holds.");
    }

    private static PushedCapState taken(String result, long sequence) {
        return new PushedCapState(200, Json.createObjectBuilder().add("result", result).add("sequence", sequence).build().toString(),
                null, null);
    }

    /** The problem type's slug of a 400 or 409. */
    public String type() {
        return status == 400 ? "bad-request" : "cap-state-refused";
    }

    /** The problem's title of a 400 or 409. */
    public String title() {
        return status == 400 ? "Bad request" : "Cap state refused";
    }
}
