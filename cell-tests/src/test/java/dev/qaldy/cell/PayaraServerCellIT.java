package dev.qaldy.cell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
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
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Issue 21: the cell on Payara Server ({@code bin/qaldy up --server payara-server}: one domain per
 * component, the control plane as the EAR). One cell for all tests: each domain's admin console
 * answers on the loopback only, over HTTPS (secure admin), with the administrator's password bin/qaldy
 * made in var/keys/ and refuses a wrong one or none; in Chromium the operator signs in to the gate's
 * console and sees its application enabled (screenshots in cell-tests/target/screenshots/); the
 * drill's rows hold on it (the control plane SIGKILLed and started again, the database stopped); and
 * the gate's application disabled and enabled with asadmin during an outage behaves as a gate
 * restarted during an outage.
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
        // Nothing of a domain listens on every interface but its application's port (no JMS proxy, no H2 AUTO_SERVER).
        Process ss = new ProcessBuilder("ss", "-Hltnp").redirectErrorStream(true).start();
        String sockets = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(ss.waitFor()).isZero();
        for (String c : DOMAINS) {
            long pid = cell.pid(c);
            List<Integer> open = sockets.lines().filter(l -> l.contains("pid=" + pid + ","))
                    .map(l -> l.trim().split("\\s+")[3]).filter(a -> a.startsWith("*:") || a.startsWith("0.0.0.0:") || a.startsWith("[::]:"))
                    .map(a -> Integer.valueOf(a.substring(a.lastIndexOf(':') + 1))).toList();
            assertThat(open).as(c + "'s listeners on every interface (" + sockets + ")").containsExactly(cell.port(c));
        }
        // Not on another address of this machine: the admin listener binds 127.0.0.1 only.
        Optional<InetAddress> other = LibertyAdminIT.nonLoopbackAddress();
        if (other.isPresent()) {
            for (String c : DOMAINS) {
                assertThatThrownBy(() -> {
                    try (Socket s = new Socket()) {
                        s.connect(new InetSocketAddress(other.get(), cell.port(c + Cell.ADMIN)), 3_000);
                    }
                }).as(c + "'s admin port on " + other.get()).isInstanceOf(ConnectException.class);
            }
        }
    }

    @Test
    @Order(2)
    void in_chromium_the_operator_signs_in_to_the_gates_console_and_sees_its_application_enabled() throws Exception {
        Path shots = cell.root().resolve("cell-tests/target/screenshots");
        Files.createDirectories(shots);
        String secret = Files.readString(cell.var().resolve("keys/payara-server-admin-password")).trim();
        String base = "https://127.0.0.1:" + cell.port("gate" + Cell.ADMIN) + "/";
        try (LibertyAdminIT.Chromium browser = new LibertyAdminIT.Chromium(cell.var().resolve("browser"))) {
            // The console is installed at its first visit ("Admin Console is starting"): minutes on a loaded machine.
            WebDriverWait slow = new WebDriverWait(browser.driver, Duration.ofMinutes(4));
            browser.driver.get(base);
            try {
                slow.until(ExpectedConditions.visibilityOfElementLocated(By.name("j_username")));
                browser.driver.findElement(By.name("j_username")).sendKeys("admin");
                browser.driver.findElement(By.name("j_password")).sendKeys(secret + "x");
                browser.driver.findElement(By.name("j_password")).submit();
                slow.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("body"), "Authentication Failed"));
                browser.screenshot(shots.resolve("payara-server-console-wrong-password.png"));

                browser.driver.get(base);
                slow.until(ExpectedConditions.visibilityOfElementLocated(By.name("j_username")));
                browser.driver.findElement(By.name("j_username")).sendKeys("admin");
                browser.driver.findElement(By.name("j_password")).sendKeys(secret);
                browser.driver.findElement(By.name("j_password")).submit();
                slow.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("body"), "Applications"));
                browser.screenshot(shots.resolve("payara-server-console-home.png"));

                browser.driver.get(base + "common/applications/applications.jsf");
                slow.until(d -> d.findElement(By.tagName("body")).getText().matches("(?s).*\\bgate\\b.*"));
                String page = browser.driver.findElement(By.tagName("body")).getText();
                browser.screenshot(shots.resolve("payara-server-console-applications.png"));
                System.out.println("Payara Server console, Applications: " + page.replace('\n', '|'));
                // The table's Enabled column is an image: the console's enabled.png or disabled.png (its ApplicationHandlers).
                List<String> states = browser.driver.findElements(By.cssSelector("img[id$='enCol']")).stream()
                        .map(img -> img.getAttribute("src")).toList();
                assertThat(states).as("the one application's Enabled column").hasSize(1);
                assertThat(states.get(0)).as("the gate's application enabled").endsWith("/resource/images/enabled.png");
            } catch (RuntimeException | AssertionError e) {
                browser.screenshot(shots.resolve("payara-server-console-failed.png"));
                throw e;
            }
        }
    }

    @Test
    @Order(3)
    void the_drill_passes_every_row_on_payara_server() throws Exception {
        Path out = cell.var().resolve("drill/payara-server");
        Cell.Run run = cell.run(DrillIT.DRILL, Duration.ofMinutes(15), "drill", "--out", out.toString());
        assertThat(run.exit()).as(run.output() + DrillIT.report(out)).isZero();
        assertThat(run.output()).contains("every row passed");
        String md = Files.readString(out.resolve("report.md"));
        assertThat(md).contains("Result: **PASS**").contains("## The API killed").contains("## The database stopped");
        assertThat(cell.qaldy("status")).contains("payara-server");
        DrillIT.assertRunning(cell);
    }

    /**
     * Stopping the gate's application from the admin side ({@code asadmin disable gate}, the console's
     * Applications → Disable) during an API outage is a gate restart like any other: while disabled the
     * gate is not ready for bin/qaldy (the domain answers with no check) and serves no app; enabled
     * again it is ready, answers a session with 503 until it could load the sign-outs from the API (as
     * a restarted gate process does) and lets nobody in; with the API back, the owner is in again.
     */
    @Test
    @Order(4)
    void the_gates_application_disabled_and_enabled_with_asadmin_during_an_outage_is_a_gate_restart() throws Exception {
        Person owner = Person.signUp(cell, "operator-" + System.nanoTime() + "@example.com");
        String app = "adminoff";
        owner.publish(app, cell.root().resolve("examples/guestbook"));
        owner.openApp(app);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).until(() -> owner.get(app, "/").statusCode() == 200);
        String page = owner.get(app, "/").body();

        cell.qaldy("stop", "control", "--kill");
        try {
            asadmin("gate", "disable", "gate");
            HttpResponse<String> ready = cell.send(cell.request(cell.publicHost(), "/health/ready").GET().build());
            assertThat(ready.body()).as("the domain's readiness with the application disabled").contains("\"checks\":[]");
            assertThat(cell.qaldy("status")).containsPattern("gate\\s+\\d+\\s+" + cell.port("gate") + "\\s+not ready");
            HttpResponse<String> off = owner.get(app, "/");
            System.out.println("gate application disabled: the app answers " + off.statusCode());
            assertThat(off.body()).as("no app is served while the gate's application is disabled").isNotEqualTo(page);

            asadmin("gate", "enable", "gate");
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500))
                    .until(() -> cell.qaldy("status").matches("(?s).*gate\\s+\\d+\\s+" + cell.port("gate") + "\\s+ready.*"));
            // As a gate process restarted during an outage: sessions wait for the sign-outs it cannot load yet (503), nobody is let in.
            HttpResponse<String> back = owner.get(app, "/");
            assertThat(back.statusCode()).as("the owner's session, the API still down: " + back.body()).isEqualTo(503);
            assertThat(back.headers().firstValue("Retry-After")).isPresent();
            HttpResponse<String> stranger = cell.send(cell.request(cell.appHost(app), "/").header("Accept", "text/html").GET().build());
            assertThat(stranger.statusCode()).as("a person the gate never knew, the API down").isNotEqualTo(200);
        } finally {
            cell.qaldy("start", "control");
        }
        await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(500)).until(() -> owner.get(app, "/").statusCode() == 200);
        assertThat(owner.get(app, "/").body()).isEqualTo(page);
    }

    /** Runs the cell's asadmin against COMPONENT's domain as the administrator; fails the test unless it exits 0. */
    static void asadmin(String component, String... command) throws Exception {
        List<String> line = new ArrayList<>(List.of(cell.var().resolve("payara-server/payara6/bin/asadmin").toString(),
                "--host", "127.0.0.1", "--port", String.valueOf(cell.port(component + Cell.ADMIN)), "--user", "admin",
                "--passwordfile", cell.var().resolve("keys/payara-server.passwordfile").toString(), "--interactive=false"));
        line.addAll(List.of(command));
        ProcessBuilder builder = new ProcessBuilder(line).redirectErrorStream(true);
        // asadmin's trust of the domain's certificate, kept by bin/qaldy's own asadmin calls
        builder.environment().put("HOME", cell.var().resolve("payara-server/home").toString());
        Process process = builder.start();
        try {
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.waitFor(3, TimeUnit.MINUTES)).as("asadmin " + String.join(" ", command) + " ended").isTrue();
            assertThat(process.exitValue()).as("asadmin " + String.join(" ", command) + ": " + output).isZero();
        } finally {
            process.destroyForcibly();
        }
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
