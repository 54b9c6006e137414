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
 * an {@code @ApplicationScoped} bean: every {@link Feed#refresh()} it reads the changes since
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
    protected InternalFeed internalFeed;

    @Inject
    protected Logger log;

    @Resource
    ManagedScheduledExecutorService scheduler;

    private boolean reachable = true;
    private ScheduledFuture<?> ticking;

    /**
     * Which feed and how often.
     *
     * @param path         the feed's path, e.g. {@code /api/v1/internal/hooks}
     * @param key          the answer's array of entries, e.g. {@code hooks}
     * @param name         names the feed in log lines
     * @param refresh      how often a round starts
     * @param fetchTimeout the bound of one page's request
     */
    public record Feed(String path, String key, String name, Duration refresh, Duration fetchTimeout) {
    }

    /** This follower's feed (its config read by then). */
    protected abstract Feed feed();

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
        ticking = scheduler.scheduleWithFixedDelay(this::round, 0, Math.max(100, feed().refresh().toMillis()), TimeUnit.MILLISECONDS);
    }

    @PreDestroy
    void stopFollowing() {
        if (ticking != null) {
            ticking.cancel(false);
        }
    }

    /** One round: every change since the last one taken, page by page. */
    protected synchronized void round() {
        Feed feed = feed();
        try {
            boolean more = true;
            for (int page = 0; page < MAX_PAGES && more; page++) {
                InternalFeed.Changes changes = internalFeed.changes(feed.path(), feed.key(), since(), PAGE, feed.fetchTimeout(),
                        MAX_ANSWER_BYTES);
                take(changes);
                more = changes.more();
            }
            if (!more) {
                caughtUp();
            }
            if (!reachable) {
                reachable = true;
                log.log(Level.INFO, "gate: {0}: the control plane answers again", feed.name());
            }
        } catch (IOException | RuntimeException e) {
            if (reachable) {
                reachable = false;
                log.log(Level.INFO, "gate: {0}: cannot ask the control plane ({1}); what was learned stays in force",
                        new Object[] {feed.name(), e.getClass().getSimpleName() + ": " + e.getMessage()});
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
