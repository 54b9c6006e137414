package dev.qaldy.gate.cap;

import dev.qaldy.contract.cap.CapKeeper;
import dev.qaldy.contract.cap.CapKeeper.Held;
import dev.qaldy.contract.cap.CapKeeper.Offer;
import dev.qaldy.contract.cap.CapStates;
import dev.qaldy.contract.keys.ServiceDirection;
import dev.qaldy.contract.keys.ServiceKeyring;
import dev.qaldy.gate.platform.CellSecrets;
import dev.qaldy.gate.platform.ControlPlane;
import dev.qaldy.gate.platform.InternalCall;
import dev.qaldy.gate.platform.Page;
import dev.qaldy.gate.platform.Pages;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * {@code /.qaldy/internal/cap-states} on the internal listener (any Host), for the cell's services only (service token):
 * {@code GET} shows what this gate holds per account (sequence, period, cap, spent, usage counted
 * here and not billed yet, asleep); {@code POST} with a cap state JWS as the body offers it to
 * the gate like a fetched one: 200 {@code {"result":"accepted"|"already-held","sequence":N}}, or
 * 409 problem {@code urn:qaldy:problem:cap-state-refused} naming why (unverifiable,
 * older-sequence, period-over, from-the-future), and the last good state stays.
 */
@ApplicationScoped
public class CapEndpoint {

    /** The path, matched exactly on the raw request URI. */
    public static final String PATH = "/.qaldy/internal/cap-states";

    @Inject
    CapMemory memory;

    @Inject
    CellSecrets secrets;

    @Inject
    InternalCall internal;

    public void receive(HttpServletRequest req, HttpServletResponse res) throws IOException {
        ServiceKeyring.Verdict verdict;
        try {
            verdict = secrets.check(req.getHeader(ControlPlane.SERVICE_TOKEN_HEADER), ServiceDirection.CONTROL_TO_GATE);
        } catch (IllegalStateException e) {
            Pages.send(req, res, Page.unavailable());
            return;
        }
        if (!internal.refuse(verdict, req, res, "a cap-state call")) {
            return;
        }
        Optional<CapKeeper> keeper = memory.keeper();
        if (keeper.isEmpty()) {
            Pages.send(req, res, Page.unavailable());
            return;
        }
        switch (req.getMethod()) {
            case "GET" -> json(res, 200, view(keeper.get()));
            case "POST" -> push(keeper.get(), req, res);
            default -> {
                res.setHeader("Allow", "GET, POST");
                Pages.send(req, res, Page.methodNotAllowed());
            }
        }
    }

    private void push(CapKeeper keeper, HttpServletRequest req, HttpServletResponse res) throws IOException {
        byte[] body = req.getInputStream().readNBytes(CapStates.MAX_LENGTH + 1);
        if (body.length > CapStates.MAX_LENGTH) {
            Pages.send(req, res, Page.badRequest("A cap state is a compact JWS of at most " + CapStates.MAX_LENGTH + " characters."));
            return;
        }
        Offer offer = keeper.offer(new String(body, StandardCharsets.US_ASCII).trim());
        if (offer instanceof Offer.Accepted accepted) {
            json(res, 200, Json.createObjectBuilder().add("result", "accepted").add("sequence", accepted.state().sequence()).build().toString());
        } else if (offer instanceof Offer.AlreadyHeld held) {
            json(res, 200, Json.createObjectBuilder().add("result", "already-held").add("sequence", held.state().sequence()).build().toString());
        } else {
            Offer.Refused refused = (Offer.Refused) offer;
            Page page = new Page(409, "cap-state-refused", "Cap state refused",
                    "The gate refused this cap state (" + refused.reason().slug() + ") and keeps the one it holds.", null, null);
            res.setHeader("X-Qaldy-Cap-Refusal", refused.reason().slug());
            Pages.send(req, res, page);
        }
    }

    /** What the gate holds, as JSON. */
    static String view(CapKeeper keeper) {
        JsonArrayBuilder accounts = Json.createArrayBuilder();
        for (Held held : keeper.held()) {
            JsonObjectBuilder account = Json.createObjectBuilder().add("accountId", held.accountId())
                    .add("unbilledRequests", held.unbilledRequests()).add("unbilledCpuMs", held.unbilledCpuMs())
                    .add("unbilledMillicents", held.unbilledMillicents()).add("asleep", held.asleep());
            if (held.state() != null) {
                account.add("sequence", held.state().sequence()).add("period", held.state().period())
                        .add("capCents", held.state().capCents()).add("spentMillicents", held.state().spentMillicents());
            }
            if (held.pendingBatch() != null) {
                account.add("pendingBatch", held.pendingBatch().toString());
            }
            accounts.add(account);
        }
        return Json.createObjectBuilder().add("watermark", keeper.watermark()).add("accounts", accounts).build().toString();
    }

    private static void json(HttpServletResponse res, int status, String json) throws IOException {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        Pages.securityHeaders(res);
        res.setHeader("Cache-Control", "no-store");
        res.setStatus(status);
        res.setContentType("application/json");
        res.setContentLength(bytes.length);
        try (OutputStream out = res.getOutputStream()) {
            out.write(bytes);
        }
    }
}
