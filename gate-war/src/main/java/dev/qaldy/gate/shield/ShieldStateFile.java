package dev.qaldy.gate.shield;

import dev.qaldy.contract.files.KeptFile;
import dev.qaldy.contract.apps.AppLabel;
import jakarta.json.Json;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.zip.CRC32;

/**
 * The shield's counters on disk ({@code shield-state.jsonl}), JSON Lines, written atomically
 * ({@link KeptFile}):
 * <pre>
 * {"file":"qaldy-gate-shield-state","v":1,"savedAtMs":1764547200000}
 * {"bucket":"client","app":"guestbook","client":"198.51.100.7","perMinute":600,"burst":100,"tokens":3}
 * {"day":"guestbook","zone":"UTC","count":41200,"endsAtMs":1764633600000}
 * {"end":2,"crc32":"5d1f0a3c"}
 * </pre>
 * The end line counts the entries and holds the CRC-32 of every byte before it, so a cut or changed
 * file is {@link Corrupt}, never read in part. Lines of at most {@value #MAX_LINE} bytes.
 */
public final class ShieldStateFile {

    public sealed interface Read {
    }

    /** @param savedAt the gate's wall clock */
    public record Held(Instant savedAt, List<RateLimiter.Kept> buckets, List<DailyLimits.Kept> days) implements Read {
        public Held {
            buckets = List.copyOf(buckets);
            days = List.copyOf(days);
        }
    }

    /** A gate's first start. */
    public record Missing() implements Read {
    }

    public record Corrupt(String why) implements Read {
    }

    static final String KIND = "qaldy-gate-shield-state";
    static final int VERSION = 1;
    /** Bytes. */
    static final int MAX_LINE = 1024;

    private ShieldStateFile() {
    }

    static byte[] encode(Held held) {
        StringBuilder text = new StringBuilder();
        text.append(Json.createObjectBuilder().add("file", KIND).add("v", VERSION).add("savedAtMs", held.savedAt().toEpochMilli())
                .build()).append('\n');
        for (RateLimiter.Kept b : held.buckets()) {
            text.append(Json.createObjectBuilder().add("bucket", b.key().scope().name().toLowerCase(Locale.ROOT))
                    .add("app", b.key().app()).add("client", b.key().client()).add("perMinute", b.limit().perMinute())
                    .add("burst", b.limit().burst()).add("tokens", b.tokens()).build()).append('\n');
        }
        for (DailyLimits.Kept d : held.days()) {
            text.append(Json.createObjectBuilder().add("day", d.app()).add("zone", d.zone().getId()).add("count", d.count())
                    .add("endsAtMs", d.endsAt().toEpochMilli()).build()).append('\n');
        }
        byte[] body = text.toString().getBytes(StandardCharsets.UTF_8);
        CRC32 crc = new CRC32();
        crc.update(body);
        byte[] end = (Json.createObjectBuilder().add("end", held.buckets().size() + held.days().size())
                .add("crc32", Long.toHexString(crc.getValue())).build() + "\n").getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[body.length + end.length];
        System.arraycopy(body, 0, all, 0, body.length);
        System.arraycopy(end, 0, all, body.length, end.length);
        return all;
    }

    public static void write(Path file, Held held) throws IOException {
        KeptFile.write(file, encode(held));
    }

    public static Read read(Path file, long maxEntries) {
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file))) {
            return decode(in, maxEntries);
        } catch (NoSuchFileException none) {
            return new Missing();
        } catch (IOException e) {
            return new Corrupt("cannot read it: " + e);
        }
    }

    static Read decode(InputStream in, long maxEntries) throws IOException {
        try {
            return entries(in, maxEntries);
        } catch (LineTooLong e) {
            return new Corrupt(e.getMessage());
        }
    }

    private static final class LineTooLong extends IOException {
        private static final long serialVersionUID = 1L;

        LineTooLong() {
            super("a line longer than " + MAX_LINE + " bytes");
        }
    }

    private static Read entries(InputStream in, long maxEntries) throws IOException {
        CRC32 crc = new CRC32();
        String first = line(in, crc);
        if (first == null) {
            return new Corrupt("empty");
        }
        JsonObject header = json(first);
        Instant savedAt;
        try {
            if (header == null || !KIND.equals(string(header, "file")) || whole(header, "v") != VERSION) {
                return new Corrupt("not a shield state file of this version");
            }
            savedAt = Instant.ofEpochMilli(whole(header, "savedAtMs"));
        } catch (IllegalArgumentException | DateTimeException e) {
            return new Corrupt("not a shield state file of this version: " + e.getMessage());
        }
        List<RateLimiter.Kept> buckets = new ArrayList<>();
        List<DailyLimits.Kept> days = new ArrayList<>();
        while (true) {
            long before = crc.getValue();
            String text = line(in, crc);
            if (text == null) {
                return new Corrupt("cut short: no end line");
            }
            JsonObject entry = json(text);
            if (entry == null) {
                return new Corrupt("a line that is not a JSON object");
            }
            if (entry.containsKey("end")) {
                if (!(entry.get("end") instanceof JsonNumber count) || count.longValue() != buckets.size() + days.size()) {
                    return new Corrupt("the end line counts " + entry.get("end") + " entries, the file has " + (buckets.size() + days.size()));
                }
                if (!(entry.get("crc32") instanceof JsonString sum) || !Long.toHexString(before).equals(sum.getString())) {
                    return new Corrupt("its checksum does not match");
                }
                if (in.read() != -1) {
                    return new Corrupt("bytes after the end line");
                }
                return new Held(savedAt, buckets, days);
            }
            if (buckets.size() + days.size() >= maxEntries) {
                return new Corrupt("more than " + maxEntries + " entries");
            }
            try {
                if (entry.containsKey("bucket")) {
                    buckets.add(bucket(entry));
                } else if (entry.containsKey("day")) {
                    days.add(day(entry));
                } else {
                    return new Corrupt("a line that is neither a bucket nor a day");
                }
            } catch (IllegalArgumentException | DateTimeException e) {
                return new Corrupt("an entry that does not hold: " + e.getMessage());
            }
        }
    }

    private static RateLimiter.Kept bucket(JsonObject entry) {
        RateLimiter.Scope scope = RateLimiter.Scope.valueOf(string(entry, "bucket").toUpperCase(Locale.ROOT));
        String app = string(entry, "app");
        String client = string(entry, "client");
        boolean hasApp = scope == RateLimiter.Scope.CLIENT || scope == RateLimiter.Scope.APP;
        boolean hasClient = scope != RateLimiter.Scope.APP;
        if (hasApp != AppLabel.valid(app) || (!hasApp && !app.isEmpty())) {
            throw new IllegalArgumentException("app " + app + " for a " + scope + " bucket");
        }
        if (hasClient == client.isEmpty() || client.length() > 64 || client.chars().anyMatch(c -> c <= ' ' || c > '~')) {
            throw new IllegalArgumentException("client " + client + " for a " + scope + " bucket");
        }
        return new RateLimiter.Kept(new RateLimiter.Key(scope, app, client),
                new Limit(whole(entry, "perMinute"), whole(entry, "burst")), whole(entry, "tokens"));
    }

    private static DailyLimits.Kept day(JsonObject entry) {
        String app = string(entry, "day");
        if (!AppLabel.valid(app)) {
            throw new IllegalArgumentException("not an app name: " + app);
        }
        return new DailyLimits.Kept(app, ZoneId.of(string(entry, "zone")), whole(entry, "count"),
                Instant.ofEpochMilli(whole(entry, "endsAtMs")));
    }

    /** Without its '\n', counted into {@code crc}; null at the end. */
    private static String line(InputStream in, CRC32 crc) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != -1) {
            crc.update(b);
            if (b == '\n') {
                return bytes.toString(StandardCharsets.UTF_8);
            }
            if (bytes.size() >= MAX_LINE) {
                throw new LineTooLong();
            }
            bytes.write(b);
        }
        return bytes.size() == 0 ? null : bytes.toString(StandardCharsets.UTF_8); // a last line without '\n' has no end
    }

    private static JsonObject json(String line) {
        try (JsonReader reader = Json.createReader(new StringReader(line))) {
            return reader.readObject();
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static String string(JsonObject json, String field) {
        if (json.get(field) instanceof JsonString s) {
            return s.getString();
        }
        throw new IllegalArgumentException("no text " + field);
    }

    private static long whole(JsonObject json, String field) {
        if (json.get(field) instanceof JsonNumber n && n.isIntegral() && n.bigIntegerValue().bitLength() < 63) {
            return n.longValue();
        }
        throw new IllegalArgumentException("no whole number " + field);
    }
}
