package dev.qaldy.gate.shield;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ShieldStateFileTest {

    private static final ShieldStateFile.Held HELD = new ShieldStateFile.Held(Instant.parse("2025-06-01T12:00:00Z"),
            List.of(new RateLimiter.Kept(RateLimiter.Key.client("guestbook", "198.51.100.7"), new Limit(600, 100), 3),
                    new RateLimiter.Kept(RateLimiter.Key.app("guestbook"), new Limit(6000, 1000), 0),
                    new RateLimiter.Kept(RateLimiter.Key.api("2001:db8:0:0:0:0:0:0/64"), new Limit(300, 50), 49),
                    new RateLimiter.Kept(RateLimiter.Key.signIn("unknown"), new Limit(30, 20), 1)),
            List.of(new DailyLimits.Kept("guestbook", ZoneId.of("UTC"), 41_200, Instant.parse("2025-06-02T00:00:00Z")),
                    new DailyLimits.Kept("memo", ZoneId.of("Pacific/Kiritimati"), 3, Instant.parse("2025-06-02T10:00:00Z"))));

    private static String text() {
        return new String(ShieldStateFile.encode(HELD), StandardCharsets.UTF_8);
    }

    private static ShieldStateFile.Read decode(String text, long maxEntries) throws Exception {
        return ShieldStateFile.decode(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), maxEntries);
    }

    @Test
    void whatIsWrittenIsReadBackWhole(@TempDir Path dir) {
        Path file = dir.resolve("shield-state.jsonl");
        assertThat(ShieldStateFile.read(file, 100)).isInstanceOf(ShieldStateFile.Missing.class);
        assertThat(catchWrite(file)).isNull();
        assertThat(ShieldStateFile.read(file, 100)).isEqualTo(HELD);
        assertThat(ShieldStateFile.read(file, 6)).as("exactly the bound").isEqualTo(HELD);
        assertThat(dir.toFile().list()).as("no temporary file left").containsExactly("shield-state.jsonl");
    }

    private static Exception catchWrite(Path file) {
        try {
            ShieldStateFile.write(file, HELD);
            return null;
        } catch (Exception e) {
            return e;
        }
    }

    static Stream<Arguments> damaged() {
        String good = text();
        String[] lines = good.split("\n");
        String last = lines[lines.length - 1];
        return Stream.of(
                Arguments.of("empty", (UnaryOperator<String>) t -> ""),
                Arguments.of("cut after the header", (UnaryOperator<String>) t -> lines[0] + "\n"),
                Arguments.of("cut in an entry", (UnaryOperator<String>) t -> t.substring(0, t.indexOf("\"tokens\":0") + 5)),
                Arguments.of("no end line", (UnaryOperator<String>) t -> t.substring(0, t.lastIndexOf("{\"end\""))),
                Arguments.of("a digit changed", (UnaryOperator<String>) t -> t.replace("\"count\":41200", "\"count\":11200")),
                Arguments.of("an entry dropped", (UnaryOperator<String>) t -> t.replace(lines[2] + "\n", "")),
                Arguments.of("bytes after the end", (UnaryOperator<String>) t -> t + "x"),
                Arguments.of("another kind of file", (UnaryOperator<String>) t -> t.replace("qaldy-gate-shield-state", "qaldy-other")),
                Arguments.of("another version", (UnaryOperator<String>) t -> t.replace("\"v\":1", "\"v\":2")),
                Arguments.of("not JSON", (UnaryOperator<String>) t -> t.replace(lines[1], "garbage")),
                Arguments.of("a NUL in a line", (UnaryOperator<String>) t -> t.replace("guestbook", "guest\u0000book")),
                Arguments.of("a line too long", (UnaryOperator<String>) t -> t.replace(lines[1], "{\"x\":\"" + "y".repeat(2000) + "\"}")),
                Arguments.of("a wrong count at the end", (UnaryOperator<String>) t -> t.replace(last, last.replace("\"end\":6", "\"end\":5"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("damaged")
    void aDamagedFileIsCorruptNeverReadInPart(String what, UnaryOperator<String> damage) throws Exception {
        assertThat(decode(damage.apply(text()), 100)).isInstanceOf(ShieldStateFile.Corrupt.class);
    }

    /** Entries that the checksum covers but that the gate would never write. */
    static Stream<Arguments> impossible() {
        return Stream.of(
                Arguments.of("a full bucket", "{\"bucket\":\"client\",\"app\":\"a\",\"client\":\"1.2.3.4\",\"perMinute\":60,\"burst\":5,\"tokens\":5}"),
                Arguments.of("negative tokens", "{\"bucket\":\"client\",\"app\":\"a\",\"client\":\"1.2.3.4\",\"perMinute\":60,\"burst\":5,\"tokens\":-1}"),
                Arguments.of("a zero limit", "{\"bucket\":\"client\",\"app\":\"a\",\"client\":\"1.2.3.4\",\"perMinute\":0,\"burst\":5,\"tokens\":1}"),
                Arguments.of("an unknown scope", "{\"bucket\":\"planet\",\"app\":\"a\",\"client\":\"1.2.3.4\",\"perMinute\":60,\"burst\":5,\"tokens\":1}"),
                Arguments.of("an app bucket with a client", "{\"bucket\":\"app\",\"app\":\"a\",\"client\":\"1.2.3.4\",\"perMinute\":60,\"burst\":5,\"tokens\":1}"),
                Arguments.of("an API bucket with an app", "{\"bucket\":\"api\",\"app\":\"a\",\"client\":\"1.2.3.4\",\"perMinute\":60,\"burst\":5,\"tokens\":1}"),
                Arguments.of("not an app name", "{\"bucket\":\"client\",\"app\":\"A B\",\"client\":\"1.2.3.4\",\"perMinute\":60,\"burst\":5,\"tokens\":1}"),
                Arguments.of("a client with a space", "{\"bucket\":\"api\",\"app\":\"\",\"client\":\"1.2 3.4\",\"perMinute\":60,\"burst\":5,\"tokens\":1}"),
                Arguments.of("a fractional count", "{\"day\":\"a\",\"zone\":\"UTC\",\"count\":1.5,\"endsAtMs\":1}"),
                Arguments.of("a negative count", "{\"day\":\"a\",\"zone\":\"UTC\",\"count\":-1,\"endsAtMs\":1}"),
                Arguments.of("no such zone", "{\"day\":\"a\",\"zone\":\"Mars/Olympus_Mons\",\"count\":1,\"endsAtMs\":1}"),
                Arguments.of("a day of no app", "{\"day\":\"-\",\"zone\":\"UTC\",\"count\":1,\"endsAtMs\":1}"),
                Arguments.of("neither", "{\"week\":\"a\"}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("impossible")
    void anEntryTheGateWouldNeverWriteMakesTheFileCorrupt(String what, String entry, @TempDir Path dir) throws Exception {
        String text = text();
        Path file = dir.resolve("f");
        // a file whose checksum is right, with the bad entry in place of the first one
        String header = text.substring(0, text.indexOf('\n') + 1);
        String body = header + entry + "\n";
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(body.getBytes(StandardCharsets.UTF_8));
        Files.writeString(file, body + "{\"end\":1,\"crc32\":\"" + Long.toHexString(crc.getValue()) + "\"}\n");
        assertThat(ShieldStateFile.read(file, 100)).isInstanceOf(ShieldStateFile.Corrupt.class);
    }

    @Test
    void moreEntriesThanTheBoundIsCorrupt() throws Exception {
        assertThat(decode(text(), 5)).isInstanceOf(ShieldStateFile.Corrupt.class);
    }
}
