package dev.qaldy.status.operators.control;

import static org.assertj.core.api.Assertions.assertThat;

import dev.qaldy.status.platform.TestSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.text.MessageFormat;
import java.util.ArrayList;
import org.glassfish.soteria.identitystores.hash.Pbkdf2PasswordHashImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The operator's password file: generated owner-only when missing, read as password or hash, never logged. */
class OperatorAccountTest {

    private static final int FAST = 1_024; // the least Jakarta Security takes
    private final PasswordHash hasher = new PasswordHash(new Pbkdf2PasswordHashImpl(), FAST);

    @TempDir
    Path temp;

    @Test
    void aMissingFileGetsARandomOwnerOnlyPassword() throws IOException {
        Path file = temp.resolve("status/operator-password");

        OperatorAccount.Loaded loaded = OperatorAccount.load(file, hasher);

        assertThat(loaded.generated()).isTrue();
        assertThat(loaded.warning()).isNull();
        String password = Files.readString(file).strip();
        assertThat(password).matches("[A-Za-z0-9_-]{24}");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent()))).isEqualTo("rwx------");
        assertThat(hasher.verify(password.toCharArray(), loaded.hash())).isTrue();

        OperatorAccount.Loaded again = OperatorAccount.load(file, hasher);
        assertThat(again.generated()).isFalse();
        assertThat(Files.readString(file).strip()).isEqualTo(password);
        assertThat(hasher.verify(password.toCharArray(), again.hash())).isTrue();
    }

    @Test
    void aFileMayHoldAHashInsteadOfThePassword() throws IOException {
        Path file = temp.resolve("operator-password");
        String hash = hasher.hash("s3cret-enough".toCharArray());
        Files.writeString(file, hash + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));

        OperatorAccount.Loaded loaded = OperatorAccount.load(file, hasher);

        assertThat(loaded.hash()).isEqualTo(hash);
        assertThat(loaded.warning()).isNull();
    }

    @Test
    void unusableFilesTurnSignInOffWithAReason() throws IOException {
        Path empty = temp.resolve("empty");
        Files.writeString(empty, "\n");
        Path broken = temp.resolve("broken");
        Files.writeString(broken, "PBKDF2WithHmacSHA512:nonsense\n");
        Path open = temp.resolve("open");
        Files.writeString(open, "password\n");
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));

        assertThat(OperatorAccount.load(empty, hasher)).satisfies(l -> {
            assertThat(l.hash()).isNull();
            assertThat(l.warning()).contains("is empty");
        });
        assertThat(OperatorAccount.load(broken, hasher)).satisfies(l -> {
            assertThat(l.hash()).isNull();
            assertThat(l.warning()).contains("malformed");
        });
        assertThat(OperatorAccount.load(open, hasher)).satisfies(l -> {
            assertThat(l.hash()).isNotNull();
            assertThat(l.warning()).contains("can be read by others");
        });
    }

    @Test
    void matchesTheConfiguredUserAndPasswordOnlyAndNeverLogsThePassword() throws IOException {
        Path file = temp.resolve("status/operator-password");
        List<String> logged = new ArrayList<>();
        Logger log = Logger.getLogger("operator-account-test");
        log.setUseParentHandlers(false);
        log.addHandler(new Handler() {
            @Override
            public void publish(LogRecord record) {
                logged.add(MessageFormat.format(record.getMessage(), record.getParameters()));
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        });
        OperatorAccount account = new OperatorAccount();
        account.settings = TestSettings.defaults().dataDir(temp.resolve("status")).build();
        account.log = log;
        account.pbkdf2 = new Pbkdf2PasswordHashImpl();

        account.load();

        String password = Files.readString(file).strip();
        assertThat(logged).singleElement().asString().contains(file.toString()).doesNotContain(password);
        assertThat(account.matches("operator", password)).isTrue();
        assertThat(account.matches("Operator", password)).isFalse();
        assertThat(account.matches("operator", password + "x")).isFalse();
        assertThat(account.matches("operator", null)).isFalse();
        assertThat(account.matches(null, password)).isFalse();
    }
}
