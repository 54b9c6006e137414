package dev.qaldy.contract.cap;

import static dev.qaldy.contract.cap.CapKeeperTest.ANA;
import static dev.qaldy.contract.cap.CapKeeperTest.CELL;
import static dev.qaldy.contract.cap.CapKeeperTest.LEEWAY;
import static dev.qaldy.contract.cap.CapKeeperTest.NOW;
import static dev.qaldy.contract.cap.CapKeeperTest.sign;
import static dev.qaldy.contract.cap.CapKeeperTest.state;
import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.util.JSONObjectUtils;
import dev.qaldy.contract.cap.CapKeeper.Held;
import dev.qaldy.contract.cap.CapKeeper.UsageBatch;
import dev.qaldy.contract.cap.CapKeeper.UsageItem;
import dev.qaldy.contract.keys.CellKeys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The account file's format, version 1: files written before the ledger had types of its own load and write back alike. */
class AccountFilesTest {

    static final UUID BATCH = UUID.fromString("5f0c3a52-8e5d-4b8e-9f3e-2d1c0b9a8f71");
    /** An account file exactly as the edge wrote it before the split: sequence 12, two open apps, a pending batch, two chunks. */
    static final String OLD_FILE = "{\"v\":1,\"accountId\":7,\"state\":\"%s\",\"open\":{\"guestbook\":[3,40],\"notes\":[1,0]},"
            + "\"pending\":{\"batchId\":\"" + BATCH + "\",\"apps\":{\"guestbook\":[10,5]}},\"acked\":[[4,100,13],[2,0,14]]}";
    /** One without a state, a pending batch or chunks. */
    static final String OLD_BARE_FILE = "{\"v\":1,\"accountId\":7,\"state\":null,\"open\":{\"guestbook\":[1,0]},\"pending\":null,"
            + "\"acked\":[]}";

    final Logger log = Logger.getAnonymousLogger();

    CapKeeper keeper(Path dir) {
        return new CapKeeper(CellKeys.published(CELL), new MovableClock(NOW), LEEWAY, dir, log, 1000);
    }

    @Test
    void a_file_in_the_old_format_loads_with_every_stage_counted(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("account-7.json"), OLD_FILE.formatted(sign(state(12, "2026-03", 100, 300, NOW))));
        CapKeeper keeper = keeper(dir);

        assertThat(keeper.load()).isEqualTo(1);
        assertThat(keeper.watermark()).isEqualTo(12);
        Held held = keeper.held().get(0);
        assertThat(held.unbilledRequests()).as("3 + 1 open, 10 pending, 4 + 2 acknowledged").isEqualTo(20);
        assertThat(held.unbilledCpuMs()).as("40 open, 5 pending, 100 acknowledged").isEqualTo(145);
        assertThat(held.unbilledMillicents()).as("20 × 50 + 145 × 2").isEqualTo(1290);
        assertThat(held.pendingBatch()).isEqualTo(BATCH);
        assertThat(keeper.nextBatch()).as("the pending batch goes out again under its id")
                .hasValue(new UsageBatch(BATCH, List.of(new UsageItem("guestbook", 10, 5))));

        keeper.offer(sign(state(13, "2026-03", 100, 700, NOW)));
        assertThat(keeper.held().get(0)).as("the chunk of sequence 13 is in the state")
                .returns(16L, Held::unbilledRequests).returns(45L, Held::unbilledCpuMs);
        keeper.acknowledged(BATCH, Map.of(ANA, 15L));
        keeper.offer(sign(state(14, "2026-03", 100, 800, NOW)));
        assertThat(keeper.held().get(0)).returns(14L, Held::unbilledRequests).returns(45L, Held::unbilledCpuMs);
        keeper.offer(sign(state(15, "2026-03", 100, 1310, NOW)));
        assertThat(keeper.held().get(0)).as("the open usage only").returns(4L, Held::unbilledRequests)
                .returns(40L, Held::unbilledCpuMs).returns(null, Held::pendingBatch);
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void a_file_in_the_old_format_is_written_back_byte_for_byte(boolean full, @TempDir Path dir) throws Exception {
        String content = full ? OLD_FILE.formatted(sign(state(12, "2026-03", 100, 300, NOW))) : OLD_BARE_FILE;
        Files.writeString(dir.resolve("account-7.json"), content);
        HighWaterMarks marks = new HighWaterMarks(dir, log);
        List<AccountLedger> read = new ArrayList<>();

        assertThat(new AccountFiles(dir, CellKeys.published(CELL), marks, log).load(read::add)).isEqualTo(1);
        AccountLedger account = read.get(0);
        synchronized (account) {
            assertThat(account.dirty()).as("as read: on disk").isFalse();
            assertThat(JSONObjectUtils.toJSONString(AccountFiles.json(account))).isEqualTo(content);
        }
    }

    @Test
    void what_the_keeper_writes_is_the_old_format(@TempDir Path dir) throws Exception {
        String jws = sign(state(12, "2026-03", 100, 300, NOW));
        CapKeeper keeper = keeper(dir);
        keeper.offer(jws);
        keeper.count(ANA, "notes", 1, 0);
        keeper.count(ANA, "guestbook", 3, 40);
        keeper.flush();

        assertThat(Files.readString(dir.resolve("account-7.json"))).isEqualTo("{\"v\":1,\"accountId\":7,\"state\":\"" + jws
                + "\",\"open\":{\"guestbook\":[3,40],\"notes\":[1,0]},\"pending\":null,\"acked\":[]}");
    }
}
