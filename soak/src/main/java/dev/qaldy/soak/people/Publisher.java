package dev.qaldy.soak.people;

import dev.qaldy.soak.Soak;
import dev.qaldy.drill.cast.Json;
import dev.qaldy.drill.cast.Visitor;
import dev.qaldy.soak.history.Facts;
import dev.qaldy.soak.history.Kind;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/** Creating apps and publishing builds, recorded: what owners, the set-up and the recovery probe do. */
final class Publisher {

    /** A build that was made live, or why not. */
    record Published(long version, String marker, String failed) {

        boolean ok() {
            return failed == null;
        }
    }

    private Publisher() {
    }

    /** {@code POST /api/v1/apps}: 201 when created. */
    static Acts.Did create(Acts acts, String actor, Visitor who, String gate, String app, boolean site, Map<String, String> facts) {
        Map<String, String> f = new LinkedHashMap<>(facts);
        f.put(Facts.APP_KIND, site ? "site" : "app");
        f.put(Facts.ACCOUNT, who.email);
        return acts.api(actor, Kind.CREATE_APP, who, gate, "POST", "/apps",
                "{\"name\":" + Json.quote(app) + (site ? ",\"kind\":\"site\"" : "") + "}", app, f);
    }

    /**
     * Uploads a new build of {@code app} (a fresh marker on its pages), waits for it (its status
     * every second, until {@code deadline}, epoch ms) and promotes it.
     */
    static Published publish(Acts acts, String actor, Visitor who, String app, boolean site, Map<String, String> facts, long deadline) {
        Published uploaded = upload(acts, actor, who, app, site, facts);
        return uploaded.ok() ? promote(acts, actor, who, app, uploaded, facts, deadline) : uploaded;
    }

    /** Uploads a new build of {@code app} with a fresh marker; its version once the API took it. */
    static Published upload(Acts acts, String actor, Visitor who, String app, boolean site, Map<String, String> facts) {
        String marker = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        Acts.Did upload = acts.upload(actor, who, app, site ? Pages.site(app, marker) : Pages.app(app, marker), marker, facts);
        if (upload.seen().status() != 202) {
            return new Published(-1, marker, "upload: " + upload.seen().summary());
        }
        return new Published(Long.parseLong(upload.op().fact(Facts.VERSION)), marker, null);
    }

    /** Waits for an uploaded build (its status every second, until {@code deadline}) and promotes it. */
    static Published promote(Acts acts, String actor, Visitor who, String app, Published uploaded, Map<String, String> facts,
            long deadline) {
        long version = uploaded.version();
        String marker = uploaded.marker();
        String status = "";
        while (Soak.CLOCK.millis() < deadline) {
            Acts.Did build = acts.api(actor, Kind.READ, who, "gate", "GET", "/apps/" + app + "/builds/" + version, null, app, facts);
            if (build.seen().status() == 200) {
                status = Json.object(build.seen().body(), "build").getString("status", "");
                if (status.equals("succeeded")) {
                    Acts.Did live = acts.api(actor, Kind.PROMOTE, who, "gate", "PUT", "/apps/" + app + "/live",
                            "{\"version\":" + version + "}", app, merged(facts, Facts.VERSION, Long.toString(version)));
                    return live.seen().status() == 200 ? new Published(version, marker, null)
                            : new Published(version, marker, "promote: " + live.seen().summary());
                }
                if (status.equals("failed")) {
                    return new Published(version, marker, "the build failed");
                }
            }
            Actor.sleep(1000);
        }
        return new Published(version, marker, "the build did not end in time (last status: " + status + ")");
    }

    static Map<String, String> merged(Map<String, String> facts, String key, String value) {
        Map<String, String> f = new LinkedHashMap<>(facts);
        f.put(key, value);
        return f;
    }
}
