package dev.qaldy.gate.console;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The console on the public origin: {@code /} redirects to {@code /console/}, and files under
 * {@code /console/} are whatever the webapp folder holds, served by the server's default
 * servlet with a few headers of ours. The console loads even while the API is down.
 */
public final class ConsoleFiles {

    private ConsoleFiles() {
    }

    /** {@code 302} to {@code /console/} on the same origin. */
    public static void redirectHome(HttpServletResponse res) {
        res.setStatus(HttpServletResponse.SC_FOUND);
        res.setHeader("Location", "/console/");
        res.setHeader("Cache-Control", "no-store");
    }

    /** Hands the request to the default servlet, asking browsers to revalidate and never to frame it. */
    public static void serve(HttpServletRequest req, HttpServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        res.setHeader("X-Content-Type-Options", "nosniff");
        res.setHeader("Referrer-Policy", "same-origin");
        res.setHeader("X-Frame-Options", "DENY");
        res.setHeader("Cache-Control", "no-cache");
        chain.doFilter(req, res);
    }
}
