package dev.qaldy.gate.platform;

import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.inject.Inject;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Follows one of the control plane's cursor-paged internal feeds in the background, as the base of
 * an {@code @ApplicationScoped} bean: every {@link #refresh()} it reads the changes since
 * {@link #since()} (at most {@value #MAX_PAGES} pages of {@value #PAGE}) and hands each page to
 * {@link #take}. Requests never wait for it; while the control plane cannot be asked, what was
 * learned stays in force, and the turn is logged once each way.
 */
public abstract class FeedFollower {

    /** Entries per page. */
    public static final int PAGE = 500;
    /** Pages per round; the rest is read next round. */
    public static final int MAX_PAGES = 20;
    /** Bytes of one answer. */
    public static final int MAX_ANSWER_BYTES = 8 * 1024 * 1024;

    @Inject
    protected InternalFeed feed;

    @Inject
    protected Logger log;

    @Resource
    ManagedScheduledExecutorService scheduler;

    private boolean reachable = true;
    private ScheduledFuture<?> ticking;

    /** The feed's path, e.g. {@code /api/v1/internal/hooks}. */
    protected abstract String path();

    /** The answer's array of entries, e.g. {@code hooks}. */
    protected abstract String key();

    /** Names the feed in log lines, e.g. {@code hooks}. */
    protected abstract String name();

    /** How often a round starts. */
    protected abstract Duration refresh();

    /** The bound of one page's request. */
    protected abstract Duration fetchTimeout();

    /** The position up to which every change was taken. */
    protected abstract long since();

    /**
     * Takes one page: learns its entries and moves {@link #since()} to {@code page.next()}.
     *
     * @throws IOException when what was learned cannot be kept (the round ends; the next tries again)
     */
    protected abstract void take(InternalFeed.Changes page) throws IOException;

    /** After a round that read the feed to its end; nothing by default. */
    protected void caughtUp() {
    }

    /** Starts the rounds, the first at once. */
    protected void startFollowing() {
        ticking = scheduler.scheduleWithFixedDelay(this::round, 0, Math.max(100, refresh().toMillis()), TimeUnit.MILLISECONDS);
    }

    @PreDestroy
    void stopFollowing() {
        if (ticking != null) {
            ticking.cancel(false);
        }
    }

    /** One round: every change since the last one taken, page by page. */
    protected synchronized void round() {
        try {
            boolean more = true;
            for (int page = 0; page < MAX_PAGES && more; page++) {
                InternalFeed.Changes changes = feed.changes(path(), key(), since(), PAGE, fetchTimeout(), MAX_ANSWER_BYTES);
                take(changes);
                more = changes.more();
            }
            if (!more) {
                caughtUp();
            }
            if (!reachable) {
                reachable = true;
                log.log(Level.INFO, "gate: {0}: the control plane answers again", name());
            }
        } catch (IOException | RuntimeException e) {
            if (reachable) {
                reachable = false;
                log.log(Level.INFO, "gate: {0}: cannot ask the control plane ({1}); what was learned stays in force",
                        new Object[] {name(), e.getClass().getSimpleName() + ": " + e.getMessage()});
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
