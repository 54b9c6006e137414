package dev.qaldy.gate.session;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.time.Instant;

/**
 * Reads the control plane's unexpired sign-out marks ({@code GET /api/v1/internal/signed-out-sessions})
 * page by page into {@link SignedOutSessions}: each page is
 * {@code {"sessions":[{"jti":"…","exp":<epoch s>}],"next":<cursor>,"more":bool}}. Bounded: it stops
 * after the list's own bound of marks ({@code qaldy.gate.signed-out-max-entries}), more than the
 * list could hold anyway.
 */
public final class SignOutMarks {

    /** One page of marks after {@code cursor} (0: from the start), as the control plane answered it. */
    @FunctionalInterface
    public interface Pages {
        /** @throws IOException when the control plane cannot be asked or answers anything but 200 */
        JsonObject after(long cursor) throws IOException, InterruptedException;
    }

    private SignOutMarks() {
    }

    /**
     * Reads every page into {@code list}; marks of tokens already expired by the list's clock are not kept.
     *
     * @return how many marks were read
     * @throws IOException for a failed page or an answer of another shape (marks of earlier pages stay listed)
     */
    public static long readAll(Pages pages, SignedOutSessions list) throws IOException, InterruptedException {
        long cursor = 0;
        long read = 0;
        while (read < list.maxEntries()) {
            JsonObject page = pages.after(cursor);
            if (page == null || !(page.get("sessions") instanceof JsonArray marks) || !(page.get("next") instanceof JsonNumber next)
                    || !next.isIntegral() || next.longValue() < cursor) {
                throw new IOException("signed-out sessions: an answer without sessions or with an older cursor");
            }
            for (JsonValue value : marks) {
                if (!(value instanceof JsonObject mark) || !(mark.get("jti") instanceof JsonString jti)
                        || !(mark.get("exp") instanceof JsonNumber exp) || !exp.isIntegral()) {
                    throw new IOException("signed-out sessions: a mark without jti or exp");
                }
                list.add(jti.getString(), Instant.ofEpochSecond(exp.longValue()));
                read++;
            }
            if (!page.getBoolean("more", false) || marks.isEmpty()) {
                return read;
            }
            cursor = next.longValue();
        }
        return read;
    }
}
