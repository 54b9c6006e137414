package dev.qaldy.cell;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Issue 21: the cell on Payara Server ({@code bin/qaldy up --server payara-server}: one domain per
 * component, the control plane as the EAR). One cell for both tests: each domain's admin console
 * answers on the loopback over HTTPS (secure admin) with the administrator's password bin/qaldy made
 * in var/keys/ and refuses a wrong one, and the drill's rows hold on it.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PayaraServerCellIT {

    static final List<String> DOMAINS = List.of("control", "runtime", "gate");
    static Cell cell;

    @BeforeAll
    static void startCell() throws Exception {
        cell = Cell.up("payara-server", DrillIT.CELL, "payara-server");
    }

    @AfterAll
    static void stopCell() {
        if (cell != null) {
            cell.close();
        }
    }

    @Test
    @Order(1)
    void each_domains_admin_console_answers_on_the_loopback_over_https_with_the_generated_password_only() throws Exception {
        Path password = cell.var().resolve("keys/payara-server-admin-password");
        assertThat(Files.getPosixFilePermissions(password)).extracting(Object::toString).containsExactlyInAnyOrder("OWNER_READ", "OWNER_WRITE");
        String secret = Files.readString(password).trim();
        assertThat(secret).hasSizeGreaterThanOrEqualTo(24);
        String status = cell.qaldy("status");
        for (String c : DOMAINS) {
            int port = cell.port(c + Cell.ADMIN);
            assertThat(status).contains(c).contains("https://127.0.0.1:" + port + "/");
            assertThat(get(port, "/management/domain", "admin", secret)).as(c + " with the generated password").isEqualTo(200);
            assertThat(get(port, "/management/domain", "admin", secret + "x")).as(c + " with a wrong password").isEqualTo(401);
            assertThat(get(port, "/management/domain", null, null)).as(c + " with none").isEqualTo(401);
            assertThat(status).contains(c + " ").doesNotContain("not ready");
        }
        assertThat(status).contains(password.toString());
    }

    @Test
    @Order(2)
    void the_drill_passes_every_row_on_payara_server() throws Exception {
        Path out = cell.var().resolve("drill/payara-server");
        Cell.Run run = cell.run(DrillIT.DRILL, Duration.ofMinutes(15), "drill", "--out", out.toString());
        assertThat(run.exit()).as(run.output() + DrillIT.report(out)).isZero();
        assertThat(run.output()).contains("every row passed");
        String md = Files.readString(out.resolve("report.md"));
        assertThat(md).contains("Result: **PASS**").contains("## The API killed").contains("## The database stopped");
        String status = cell.qaldy("status");
        assertThat(status).contains("payara-server");
        DrillIT.assertRunning(cell);
    }

    /** The HTTP status of GET https://127.0.0.1:PORT/PATH, with basic authentication when {@code user} is set. */
    static int get(int port, String path, String user, String password) throws Exception {
        HttpsURLConnection https = (HttpsURLConnection) URI.create("https://127.0.0.1:" + port + path).toURL().openConnection();
        // The domain's own self-signed certificate (made by create-domain for the machine's name): this
        // test checks who may administer, on the loopback, not the certificate's name.
        https.setSSLSocketFactory(trustingTheDomain().getSocketFactory());
        https.setHostnameVerifier((host, session) -> "127.0.0.1".equals(host));
        https.setConnectTimeout(10_000);
        https.setReadTimeout(60_000);
        https.setRequestProperty("Accept", "application/json");
        https.setRequestProperty("X-Requested-By", "qaldy-test");
        if (user != null) {
            https.setRequestProperty("Authorization", "Basic "
                    + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)));
        }
        try {
            return https.getResponseCode();
        } finally {
            https.disconnect();
        }
    }

    private static SSLContext trustingTheDomain() throws Exception {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, new TrustManager[] {new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        }}, null);
        return context;
    }
}
