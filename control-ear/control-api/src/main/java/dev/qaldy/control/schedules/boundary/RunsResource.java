package dev.qaldy.control.schedules.boundary;

import dev.qaldy.control.platform.boundary.CurrentSession;
import dev.qaldy.control.platform.boundary.SignedIn;
import dev.qaldy.control.platform.control.InvalidInput;
import dev.qaldy.control.schedules.entity.Run;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.List;

/** {@code /api/v1/apps/{app}/runs}: the runs of the app's jobs, newest first, with state and log (owner only). */
@Path("apps/{app}/runs")
@SignedIn
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class RunsResource {

    /**
     * One run. {@code schedule} is null for a webhook run ({@code hook} names it); {@code actor} is
     * {@code scheduler}, {@code scheduler.catchup} or {@code webhook}; {@code state} one of queued,
     * waiting-for-cap, running, succeeded, failed.
     */
    public record RunView(long id, Long schedule, String hook, String job, Instant tick, String actor, String state,
            List<String> log, Instant createdAt, Instant startedAt, Instant finishedAt) {

        static RunView of(Run run) {
            return new RunView(run.id(), run.scheduleId(), run.hookName(), run.job(), run.tick(), run.actor(),
                    run.state().label(), run.logLines(), run.createdAt(), run.startedAt(), run.finishedAt());
        }
    }

    /** A page of runs; pass {@code nextBefore} as {@code ?before=} for the next (older) page, null on the last. */
    public record Page(List<RunView> runs, Long nextBefore) {
    }

    @Inject
    Schedules schedules;

    @Inject
    CurrentSession current;

    /** {@code ?limit=1..200} (default 50) {@code &before=<id>}. */
    @GET
    public Page list(@PathParam("app") String app, @QueryParam("limit") @DefaultValue("50") String limit,
            @QueryParam("before") String before) {
        int size;
        Long cursor;
        try {
            size = Integer.parseInt(limit);
            cursor = before == null || before.isEmpty() ? null : Long.parseLong(before);
        } catch (NumberFormatException e) {
            throw new InvalidInput("limit must be a whole number from 1 to " + Schedules.MAX_RUNS_PAGE
                    + ", and before a run id");
        }
        List<RunView> runs = schedules.runs(current.get(), app, size, cursor).stream().map(RunView::of).toList();
        return new Page(runs, runs.size() == size ? runs.get(runs.size() - 1).id() : null);
    }
}
