package dev.qaldy.control.schedules.boundary;

import dev.qaldy.control.platform.boundary.CurrentSession;
import dev.qaldy.control.platform.boundary.JsonBody;
import dev.qaldy.control.platform.boundary.SignedIn;
import dev.qaldy.control.platform.control.InvalidInput;
import dev.qaldy.control.platform.control.NotFound;
import dev.qaldy.control.schedules.entity.Schedule;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.io.InputStream;
import java.time.Clock;
import java.time.Instant;
import java.util.List;

/** {@code /api/v1/apps/{app}/schedules}: add, list and delete an app's schedules (owner only). */
@Path("apps/{app}/schedules")
@SignedIn
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class SchedulesResource {

    /**
     * A schedule as the API shows it; {@code lastFiredTick} is null until it first fired; {@code note}
     * (only when just added, and only when set) says why its job could not be checked against the live version.
     */
    public record ScheduleView(long id, String cron, String zone, String job, Instant createdAt, String createdBy,
            Instant lastFiredTick, Instant nextTick, String note) {

        static ScheduleView of(Schedule schedule, Instant now) {
            return of(schedule, now, null);
        }

        static ScheduleView of(Schedule schedule, Instant now, String note) {
            Instant after = schedule.lastFiredTick() != null && schedule.lastFiredTick().isAfter(now) ? schedule.lastFiredTick() : now;
            return new ScheduleView(schedule.id(), schedule.cron(), schedule.zone(), schedule.job(), schedule.createdAt(),
                    schedule.createdBy(), schedule.lastFiredTick(), schedule.rule().nextAfter(after).orElse(null), note);
        }
    }

    @Inject
    Schedules schedules;

    @Inject
    CurrentSession current;

    @Inject
    Clock clock;

    @GET
    public List<ScheduleView> list(@PathParam("app") String app) {
        Instant now = clock.instant();
        return schedules.list(current.get(), app).stream().map(s -> ScheduleView.of(s, now)).toList();
    }

    /**
     * {@code {cron, zone?, job}} → 201 the schedule. A cron that is not standard 5-field, an unknown
     * zone, a bad job name or a job the live version's server.js does not register → 400 saying which
     * (listing the jobs it does). No live version yet → 201 with a {@code note} that the job was not checked.
     */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response add(@PathParam("app") String app, InputStream body, @Context UriInfo uri) {
        JsonBody json = JsonBody.read(body);
        JsonValue zone = json.json().get("zone");
        if (zone != null && zone.getValueType() != JsonValue.ValueType.NULL && !(zone instanceof JsonString)) {
            throw new InvalidInput("\"zone\" must be an IANA time zone name such as \"Europe/Berlin\"");
        }
        Schedules.Added added = schedules.add(current.get(), app, json.text("cron"),
                zone instanceof JsonString text ? text.getString() : null, json.text("job"));
        Schedule schedule = added.schedule();
        return Response.created(uri.getAbsolutePathBuilder().path(Long.toString(schedule.id())).build())
                .entity(ScheduleView.of(schedule, clock.instant(), added.note())).build();
    }

    /** → 204; no such schedule → 404. */
    @DELETE
    @Path("{id}")
    public Response delete(@PathParam("app") String app, @PathParam("id") String id) {
        long number;
        try {
            number = Long.parseLong(id);
        } catch (NumberFormatException e) {
            throw new NotFound(app + " has no schedule like that");
        }
        schedules.delete(current.get(), app, number);
        return Response.noContent().build();
    }
}
