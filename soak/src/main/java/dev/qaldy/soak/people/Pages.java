package dev.qaldy.soak.people;

import dev.qaldy.drill.cast.Zips;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The soak's builds: small apps and sites whose every page carries its build's marker (so the
 * history knows which version a page came from), and a job that logs who ran it and, for a
 * webhook, the delivery's idempotency key (so each run can be told apart).
 */
final class Pages {

    /** The job every soak app registers (schedules and hooks run it). */
    static final String JOB = "beat";
    /** Pages served by every build. */
    static final String[] PAGES = {"/", "/about.html"};

    private static final Pattern MARKER = Pattern.compile("soak-marker:([a-z0-9]+)");
    private static final String SERVER_JS = """
            // bin/qaldy soak's job: one line naming the run's actor and tick, and for a webhook its idempotency key.
            app.job('beat', function (ctx) {
              console.log('soak ' + ctx.actor + ' tick ' + ctx.tick);
              if (ctx.json && typeof ctx.json.key === 'string') {
                console.log('soak-key ' + ctx.json.key.slice(0, 80));
              }
            });
            """;

    private Pages() {
    }

    /** An app (sign-in) of name {@code app} whose pages carry {@code marker}. */
    static byte[] app(String app, String marker) {
        Map<String, String> files = new LinkedHashMap<>();
        files.put("qaldy.json", "{\"name\":\"" + app + "\",\"kind\":\"app\",\"handler\":\"server.js\"}");
        files.put("server.js", SERVER_JS);
        pages(files, app, marker);
        return Zips.of(files);
    }

    /** A public site whose pages carry {@code marker}. */
    static byte[] site(String app, String marker) {
        Map<String, String> files = new LinkedHashMap<>();
        files.put("qaldy.json", "{\"name\":\"" + app + "\",\"kind\":\"site\"}");
        pages(files, app, marker);
        return Zips.of(files);
    }

    private static void pages(Map<String, String> files, String app, String marker) {
        for (String page : new String[] {"index", "about"}) {
            files.put("public/" + page + ".html", "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + app
                    + "</title></head><body><h1>" + app + ": " + page + "</h1><p>A page of bin/qaldy soak, build soak-marker:" + marker
                    + ".</p></body></html>\n");
        }
    }

    /** The marker of the build that served {@code body}, or "". */
    static String markerOf(String body) {
        Matcher m = MARKER.matcher(body);
        return m.find() ? m.group(1) : "";
    }
}
