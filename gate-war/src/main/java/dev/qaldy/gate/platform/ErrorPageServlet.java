package dev.qaldy.gate.platform;

import jakarta.inject.Inject;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The container's error pages (web.xml), e.g. a missing console file: the gate's calm page
 * instead of the server's, and never a stack trace. Reached only by ERROR dispatches; a direct
 * request to its path is answered by the gate filter with 404.
 */
@WebServlet(urlPatterns = ErrorPageServlet.PATH)
public class ErrorPageServlet extends HttpServlet {

    static final String PATH = "/.qaldy-gate/error";
    private static final long serialVersionUID = 1L;

    @Inject
    Logger log;

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse res) throws IOException {
        Object code = req.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        int status = code instanceof Integer i ? i : 500;
        if (status >= 400 && status < 500) {
            Pages.send(req, res, clientError(status));
            return;
        }
        String reference = UUID.randomUUID().toString().substring(0, 8);
        Object error = req.getAttribute(RequestDispatcher.ERROR_EXCEPTION);
        log.log(Level.SEVERE, "gate: error " + status + " on " + req.getAttribute(RequestDispatcher.ERROR_REQUEST_URI)
                + ", reference " + reference, error instanceof Throwable t ? t : null);
        Pages.send(req, res, Page.internalError(reference));
    }

    /** The gate's page for a 4xx the server raised itself (issue 20: headers too large are 431, never a blank page). */
    static Page clientError(int status) {
        return switch (status) {
            case 400 -> Page.badPath();
            case 404 -> Page.noRoute("/");
            case 405 -> Page.methodNotAllowed();
            case 414 -> Page.uriTooLong();
            case 431 -> Page.headersTooLarge();
            default -> new Page(status, "client-error", "Request not served",
                    "This request can't be served. Check the address, or start again from the home page.", "/", "Go to the home page");
        };
    }
}
