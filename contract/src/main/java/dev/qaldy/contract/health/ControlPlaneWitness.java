package dev.qaldy.contract.health;

import jakarta.json.Json;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;

/**
 * A gate's second opinion on a control-plane failure (issue 19): the runtime host it forwards to
 * says how long ago the control plane last answered <em>it</em>. A gate whose own outage began
 * before that answer, and which has had no answer of its own since, is cut off alone (a network
 * partition while the API serves the rest of the cell, which may change sharing meanwhile) and
 * trusts none of its remembered copies; when the runtime host lost the control plane too, the
 * outage is the cell's and copies stand in as the seed says. The runtime host serves
 * {@code GET} {@link #PATH}; the gate never forwards {@code /.qaldy/} paths to it.
 * <p>
 * What this cannot tell: a gate cut off together with its runtime host (both on the far side of
 * one partition) sees a whole-cell outage and keeps its copies (docs/cell-contract.md).
 */
public final class ControlPlaneWitness {

    /** On the runtime host; no credential: it says no more than the status page shows. */
    public static final String PATH = "/.qaldy/internal/control-plane";
    /**
     * Ms an answer to the witness may follow the gate's first failure and still belong to the same
     * outage (an answer in flight when the control plane stopped, the two hosts' probe timing).
     */
    public static final long MARGIN_MS = 1_000;
    /** Bytes of the witness's answer read at most. */
    public static final int MAX_ANSWER_BYTES = 1_024;

    private ControlPlaneWitness() {
    }

    /** The witness's answer: {@code {"state":"UP|SUSPECT|FAILING","answeredMsAgo":N}}, N in ms, -1 when it never answered. */
    public static String answer(UpstreamHealth view) {
        return Json.createObjectBuilder().add("state", view.view().state().name())
                .add("answeredMsAgo", view.answeredAgoMs()).build().toString();
    }

    /**
     * {@code answeredMsAgo} of a witness's answer.
     *
     * @throws IOException the body is not such an answer
     */
    public static long answeredMsAgo(byte[] body) throws IOException {
        JsonObject json;
        try (JsonReader reader = Json.createReader(new ByteArrayInputStream(body))) {
            json = reader.readObject();
        } catch (RuntimeException e) {
            throw new IOException("the control plane's witness: not a JSON object", e);
        }
        if (!(json.get("answeredMsAgo") instanceof JsonNumber ago) || !ago.isIntegral() || ago.longValue() < -1) {
            throw new IOException("the control plane's witness: no whole answeredMsAgo of -1 or more");
        }
        return ago.longValue();
    }

    /**
     * Whether a gate is cut off alone (all in ms, measured when the witness was asked).
     *
     * @param outageAgeMs          since the gate's first failure of this outage
     * @param witnessAnsweredMsAgo the witness's {@code answeredMsAgo} (-1: never)
     * @param ownAnsweredMsAgo     since the control plane last answered the gate itself (-1: never)
     */
    public static boolean cutOffAlone(long outageAgeMs, long witnessAnsweredMsAgo, long ownAnsweredMsAgo) {
        boolean witnessHeardSince = witnessAnsweredMsAgo >= 0 && witnessAnsweredMsAgo + MARGIN_MS < outageAgeMs;
        boolean gateHeardSince = ownAnsweredMsAgo >= 0 && ownAnsweredMsAgo < outageAgeMs;
        return witnessHeardSince && !gateHeardSince;
    }
}
