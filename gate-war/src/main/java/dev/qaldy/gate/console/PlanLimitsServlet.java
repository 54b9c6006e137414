package dev.qaldy.gate.console;

import dev.qaldy.gate.shield.Plan;
import dev.qaldy.gate.shield.Shield;
import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * {@code GET /console/plan.json?app=<app>}: the limits of the app's plan at the gate, which the
 * console shows beside the shield's fields (issue 20: an owner lowering a limit could not see what
 * the plan allows). The plans are the gate's config ({@code qaldy.gate.shield.plan.<plan>.*}, the app's
 * {@code qaldy.gate.shield.app.<app>.plan}, else free), so the gate answers, also while the control
 * plane is down. A name that is no app's gets the free plan, so the answer never tells whether an
 * app exists; the limits are what any visitor meets anyway.
 */
@WebServlet(urlPatterns = PlanLimitsServlet.PATH)
public class PlanLimitsServlet extends HttpServlet {

    static final String PATH = "/console/plan.json";
    /** An app name: a DNS label (the control plane's AppName rule). */
    static final Pattern APP = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");
    private static final long serialVersionUID = 1L;

    @Inject
    Shield shield;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
        String app = req.getParameter("app");
        boolean named = app != null && APP.matcher(app).matches();
        byte[] body = (named ? json(app, shield.plan(app))
                : "{\"detail\":\"Name an app, e.g. /console/plan.json?app=guestbook, then ask again.\"}").getBytes(StandardCharsets.UTF_8);
        res.setStatus(named ? HttpServletResponse.SC_OK : HttpServletResponse.SC_BAD_REQUEST);
        res.setContentType("application/json");
        res.setCharacterEncoding("UTF-8");
        res.setHeader("Cache-Control", "no-store");
        res.setHeader("X-Content-Type-Options", "nosniff");
        res.setContentLength(body.length);
        res.getOutputStream().write(body);
    }

    /** {@code {"app","plan","perClientPerMinute","perAppPerMinute","perAppPerDay"}}: requests a minute, a minute, a day. */
    static String json(String app, Plan plan) {
        return "{\"app\":\"" + app + "\",\"plan\":\"" + plan.name() + "\",\"perClientPerMinute\":" + plan.perClient().perMinute()
                + ",\"perAppPerMinute\":" + plan.perApp().perMinute() + ",\"perAppPerDay\":" + plan.perAppPerDay() + "}";
    }
}
