package dev.qaldy.gate.session;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.time.Instant;

/**
 * Reads the control plane's unexpired sign-outs into {@link SignedOutSessions}, page by page:
 * {@code {"sessions":[{"jti":"…","exp":<epoch s>}],"next":<cursor>,"more":bool}}; stops at the list's bound.
 */
public final class SignOutMarks {

    /** {@code cursor} 0: from the start. */
    @FunctionalInterface
    public interface Pages {
        /** @throws IOException when the control plane cannot be asked or answers anything but 200 */
        JsonObject after(long cursor) throws IOException, InterruptedException;
    }

    private SignOutMarks() {
    }

    /**
     * @return how many marks were read
     * @throws IOException for a failed page or another shape (earlier pages' marks stay listed)
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
