package dev.qaldy.gate.console;

import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * {@code GET /console/settings.json}: how often the console asks the control plane whether it
 * answers, and after how many misses in a row it says so (seed: "The console asks the API every
 * 15 seconds. After two misses in a row it shows a banner"). Served by the gate, so the console
 * gets it while the control plane is down; the console uses the same defaults when it cannot.
 *
 * <p>A bad value is logged and replaced by the default rather than stopping the gate: the gate
 * is what keeps serving apps during an outage, and a typo in a console setting must not take
 * it down.
 */
@WebServlet(urlPatterns = ConsoleSettingsServlet.PATH, loadOnStartup = 1)
public class ConsoleSettingsServlet extends HttpServlet {

    static final String PATH = "/console/settings.json";
    static final Duration DEFAULT_POLL = Duration.ofSeconds(15);
    static final int DEFAULT_MISSES = 2;
    static final Duration MIN_POLL = Duration.ofSeconds(1);
    static final Duration MAX_POLL = Duration.ofHours(1);
    static final int MAX_MISSES = 100;
    private static final long serialVersionUID = 1L;

    @Inject
    @ConfigProperty(name = "qaldy.console.poll-interval", defaultValue = "PT15S")
    String pollInterval;

    @Inject
    @ConfigProperty(name = "qaldy.console.misses-before-banner", defaultValue = "2")
    String missesBeforeBanner;

    @Inject
    Logger log;

    private String json;

    @Override
    public void init() {
        Duration poll = pollInterval(pollInterval);
        int misses = misses(missesBeforeBanner);
        json = json(poll, misses);
        log.log(Level.INFO, "gate: the console asks the control plane every {0} and shows the outage banner after {1} misses in a row",
                new Object[] {poll, Integer.toString(misses)});
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        res.setStatus(HttpServletResponse.SC_OK);
        res.setContentType("application/json");
        res.setCharacterEncoding("UTF-8");
        res.setHeader("Cache-Control", "no-store");
        res.setHeader("X-Content-Type-Options", "nosniff");
        res.setContentLength(body.length);
        res.getOutputStream().write(body);
    }

    /** {@code {"pollIntervalMs":15000,"missesBeforeBanner":2}}. */
    static String json(Duration poll, int misses) {
        return "{\"pollIntervalMs\":" + poll.toMillis() + ",\"missesBeforeBanner\":" + misses + "}";
    }

    /** An ISO-8601 duration between {@link #MIN_POLL} and {@link #MAX_POLL}; otherwise the default. */
    Duration pollInterval(String value) {
        Duration parsed;
        try {
            parsed = Duration.parse(value.trim());
        } catch (DateTimeParseException | NullPointerException e) {
            warn("qaldy.console.poll-interval", value, "an ISO-8601 duration like PT15S", DEFAULT_POLL);
            return DEFAULT_POLL;
        }
        if (parsed.compareTo(MIN_POLL) < 0 || parsed.compareTo(MAX_POLL) > 0) {
            warn("qaldy.console.poll-interval", value, "between " + MIN_POLL + " and " + MAX_POLL, DEFAULT_POLL);
            return DEFAULT_POLL;
        }
        return parsed;
    }

    /** A whole number from 1 to {@link #MAX_MISSES}; otherwise the default. */
    int misses(String value) {
        int parsed;
        try {
            parsed = Integer.parseInt(value.trim());
        } catch (NumberFormatException | NullPointerException e) {
            warn("qaldy.console.misses-before-banner", value, "a whole number", DEFAULT_MISSES);
            return DEFAULT_MISSES;
        }
        if (parsed < 1 || parsed > MAX_MISSES) {
            warn("qaldy.console.misses-before-banner", value, "from 1 to " + MAX_MISSES, DEFAULT_MISSES);
            return DEFAULT_MISSES;
        }
        return parsed;
    }

    private void warn(String property, String value, String expected, Object fallback) {
        if (log != null) {
            log.log(Level.SEVERE, "gate: {0} must be {1}, not \"{2}\"; the console uses {3}",
                    new Object[] {property, expected, value, fallback});
        }
    }
}
