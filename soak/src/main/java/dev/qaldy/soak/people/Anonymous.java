package dev.qaldy.soak.people;

import dev.qaldy.soak.history.Facts;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Nobody in particular: a visitor of the public site (its pages, also while it is briefly made
 * private), or a scanner bot with a User-Agent the cell's bot rules block (sqlmap), on the site
 * and on a private app: the bot is never served.
 */
final class Anonymous extends Actor {

    static final String BOT_AGENT = "sqlmap/1.8#stable (https://sqlmap.org)";

    private final List<String> apps;
    private final boolean bot;

    Anonymous(String name, long seed, Acts acts, AtomicBoolean running, List<String> apps, boolean bot) {
        super(name, seed, acts, running);
        this.apps = List.copyOf(apps);
        this.bot = bot;
    }

    @Override
    void step() {
        Map<String, String> headers = bot ? Map.of("User-Agent", BOT_AGENT) : Map.of();
        acts.open(name, null, gate(), pick(apps), pick(List.of(Pages.PAGES)), headers, bot ? Map.of(Facts.BOT, "sqlmap") : Map.of());
    }

    @Override
    double[] pause() {
        return bot ? new double[] {3, 6} : new double[] {0.8, 2};
    }
}
