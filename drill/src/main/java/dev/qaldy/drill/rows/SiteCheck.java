package dev.qaldy.drill.rows;

import static dev.qaldy.drill.rows.Ask.check;
import static dev.qaldy.drill.rows.Ask.eventually;

import dev.qaldy.drill.cast.Cast;
import dev.qaldy.drill.cell.DrillError;
import dev.qaldy.drill.cell.Seen;
import java.time.Duration;
import java.util.List;

/**
 * The seed's paragraph on sites, for the drill's public site: pages already served keep loading
 * without the API; a page this data centre never served (one per pass: {@code /kill.html},
 * {@code /db.html}, {@code /cut.html}) needs it, so it is a 503 until the API is back, then a 200.
 */
public final class SiteCheck {

    static final String WHO = "a site visitor (no sign-in)";
    static final String SERVED = "/about.html";

    private final Cast cast;

    public SiteCheck(Cast cast) {
        this.cast = cast;
    }

    /** Before the outage: the index and the about page are served (once is enough for this data centre). */
    public void before() {
        for (String path : new String[] {"/", SERVED}) {
            Seen seen = cast.visitSite(path);
            if (seen.status() != 200) {
                throw new DrillError("the public site's " + path + " before the outage: expected 200, got " + seen.summary());
            }
        }
    }

    /** During the outage: a page already served still loads, and so does the index. */
    public List<Check> servedPages() {
        return List.of(
                check(SeedRow.SITES, Check.DURING, WHO, "200: a page already served still loads",
                        () -> cast.visitSite(SERVED), s -> s.status() == 200 && s.body().contains("Drill site: about")),
                check(SeedRow.SITES, Check.DURING, WHO + ", the home page", "200: the home page already served still loads",
                        () -> cast.visitSite("/"), s -> s.status() == 200 && s.body().contains("Drill site: index")));
    }

    /**
     * Late in the outage (past the runtime host's live freshness, so it must ask and cannot): a page
     * never served in this data centre is a 503 "Temporarily unavailable", never the page.
     */
    public Check neverServed(String pass) {
        return check(SeedRow.SITES, Check.DURING, WHO + ", a page nobody opened yet",
                "503 “Temporarily unavailable”: a file this data centre never served needs the API",
                () -> cast.visitSite("/" + pass + ".html"),
                s -> s.status() == 503 && s.body().contains("Temporarily unavailable") && !s.body().contains("Drill site:"));
    }

    /** After the return: that page loads. */
    public Check afterReturn(String pass, Duration wait) {
        return eventually(SeedRow.SITES, Check.AFTER, WHO + ", the page nobody had opened", "200: the API serves it again",
                () -> cast.visitSite("/" + pass + ".html"), s -> s.status() == 200 && s.body().contains("Drill site: " + pass), wait);
    }
}
