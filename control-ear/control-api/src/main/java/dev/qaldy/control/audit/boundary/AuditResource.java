package dev.qaldy.control.audit.boundary;

import dev.qaldy.control.audit.entity.AuditEntry;
import dev.qaldy.control.platform.boundary.CurrentSession;
import dev.qaldy.control.platform.boundary.SignedIn;
import dev.qaldy.control.platform.control.InvalidInput;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.List;

/** {@code /api/v1/audit}: the caller's own actions and everything on the apps they own, newest first. */
@Path("audit")
@SignedIn
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class AuditResource {

    /** One line of the log. */
    public record EntryView(long id, Instant at, String actor, String action, String app, String target) {

        static EntryView of(AuditEntry entry) {
            return new EntryView(entry.id(), entry.at(), entry.actor(), entry.action(), entry.appName(), entry.target());
        }
    }

    /**
     * A page of the log.
     *
     * @param nextBefore pass as {@code ?before=} for the next (older) page; null on the last page
     */
    public record Page(List<EntryView> entries, Long nextBefore) {
    }

    @Inject
    AuditLog log;

    @Inject
    CurrentSession current;

    /** {@code ?limit=1..200} (default 50) {@code &before=<id>} → a page of entries. */
    @GET
    public Page read(@QueryParam("limit") @DefaultValue("50") String limit, @QueryParam("before") String before) {
        int size = number(limit, "limit").intValue();
        Long cursor = before == null || before.isEmpty() ? null : number(before, "before");
        List<EntryView> entries = log.visibleTo(current.get(), size, cursor).stream().map(EntryView::of).toList();
        Long next = entries.size() == size ? entries.get(entries.size() - 1).id() : null;
        return new Page(entries, next);
    }

    private static Long number(String text, String name) {
        try {
            long value = Long.parseLong(text);
            if (value > Integer.MAX_VALUE) {
                throw new NumberFormatException();
            }
            return value;
        } catch (NumberFormatException e) {
            throw new InvalidInput(name + " must be a whole number (limit: 1 to " + AuditLog.MAX_LIMIT + ")");
        }
    }
}
