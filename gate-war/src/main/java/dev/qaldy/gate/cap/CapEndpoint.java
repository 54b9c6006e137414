package dev.qaldy.gate.cap;

import dev.qaldy.contract.cap.CapKeeper;
import dev.qaldy.contract.cap.CapKeeper.Held;
import dev.qaldy.contract.cap.PushedCapState;
import dev.qaldy.contract.http.JsonAnswer;
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
    public static final String PATH = PushedCapState.PATH;

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

    private static void push(CapKeeper keeper, HttpServletRequest req, HttpServletResponse res) throws IOException {
        PushedCapState answer = PushedCapState.offer(keeper, req.getInputStream(), "gate");
        if (answer.json() != null) {
            json(res, answer.status(), answer.json());
            return;
        }
        if (answer.refusal() != null) {
            res.setHeader(PushedCapState.REFUSAL_HEADER, answer.refusal());
        }
        Pages.send(req, res, new Page(answer.status(), answer.type(), answer.title(), answer.detail(), null, null));
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
        Pages.securityHeaders(res);
        JsonAnswer.write(res, status, json);
    }
}
