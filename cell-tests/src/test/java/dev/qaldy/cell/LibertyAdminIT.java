package dev.qaldy.cell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Issue 21, the Open Liberty half: every Liberty server of a cell has its Admin Center and REST
 * connector on an HTTPS port of its own on 127.0.0.1, with the administrator and the keystore
 * bin/qaldy made in var/keys/ (mode 600), and no secret of the cell in plain text in the servers'
 * files or in a server dump. With the administrator's password the REST connector lists the
 * server's application and {@code /metrics} answers; a wrong password gets 401; on the public HTTP
 * port no administration path takes the password. In Chromium: the Admin Center's sign-in, the
 * Explore tool listing the gate's application (screenshots in cell-tests/target/screenshots/).
 * Then the gate's application stopped and started through the REST connector. Last, what a new
 * operator tripped over (issue 21): a 429's status line, a database outage in the control plane's
 * logs (one warning, one line, no incident of the application), and a server started with Liberty's
 * own {@code server start}, which bin/qaldy must see, refuse to start twice and stop.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LibertyAdminIT {

    static final String APPLICATION_MBEAN = "WebSphere:service=com.ibm.websphere.application.ApplicationMBean,name=";

    static Cell cell;
    static String password;
    static HttpClient https;

    @BeforeAll
    static void startCell() throws Exception {
        cell = Cell.up("liberty-admin", Map.of(
                "QALDY_LIBERTY_HOME", Cell.repository().resolve("cell-tests/target/liberty/wlp").toString(),
                // one request a minute for a client of the app "ratelimited" (the 429's status line)
                "QALDY_OPTS_GATE", "-Dqaldy.gate.shield.plan.tiny.per-client-per-minute=1 -Dqaldy.gate.shield.plan.tiny.burst=1"
                        + " -Dqaldy.gate.shield.app.ratelimited.plan=tiny",
                "QALDY_NO_SEED", "1"), "liberty");
        password = Files.readString(cell.var().resolve("keys/liberty-admin-password")).trim();
        https = HttpClient.newBuilder().sslContext(trusting(cell.var().resolve("keys/liberty-admin.crt.pem")))
                .connectTimeout(Duration.ofSeconds(5)).followRedirects(HttpClient.Redirect.NEVER).build();
        // The admin endpoint opens with the server; wait until the gate's answers over TLS.
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1)).ignoreExceptions()
                .until(() -> admin("gate", "/adminCenter/login.jsp", null).statusCode() == 200);
    }

    @AfterAll
    static void stopCell() {
        if (cell != null) {
            cell.close();
        }
    }

    @Test
    @Order(1)
    void status_lists_each_liberty_servers_admin_console_and_the_credentials_file_only_the_owner_reads() throws Exception {
        String status = cell.qaldy("status");
        for (String c : List.of("control", "runtime", "gate")) {
            assertThat(status).containsPattern(c + "\\s+https://127\\.0\\.0\\.1:" + cell.port(c + Cell.ADMIN) + "/adminCenter/");
        }
        assertThat(status).contains("user admin, password in " + cell.var().resolve("keys/liberty-admin-password"));
        for (String file : List.of("liberty-admin-password", "liberty-keystore-password", "liberty-admin.p12", "liberty-encoded")) {
            assertThat(Files.getPosixFilePermissions(cell.var().resolve("keys").resolve(file))).as(file)
                    .isEqualTo(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE));
        }
        assertThat(password).hasSizeGreaterThanOrEqualTo(24);
        for (String c : List.of("control", "runtime", "gate")) {
            String rss = Files.readAllLines(Path.of("/proc/" + cell.pid(c) + "/status")).stream()
                    .filter(l -> l.startsWith("VmRSS")).findFirst().orElse("?");
            System.out.println(c + " on Liberty with its Admin Center: " + rss.replaceAll("\\s+", " "));
        }
    }

    @Test
    @Order(2)
    void no_secret_of_the_cell_is_in_plain_text_in_the_servers_files_or_a_server_dump() throws Exception {
        Path servers = cell.var().resolve("liberty/servers");
        for (String c : List.of("control", "runtime", "gate")) {
            String bootstrap = Files.readString(servers.resolve(c).resolve("bootstrap.properties"));
            assertThat(bootstrap).as(c).containsPattern("cell\\.admin\\.password=\\{hash\\}")
                    .containsPattern("cell\\.admin\\.keystore\\.password=\\{aes\\}");
        }
        assertThat(Files.readString(servers.resolve("control/bootstrap.properties"))).containsPattern("cell\\.db\\.password=\\{aes\\}");
        List<String> secrets = secrets();
        try (Stream<Path> files = Files.walk(servers)) {
            for (Path f : files.filter(Files::isRegularFile).filter(f -> f.toString().matches(".*\\.(xml|properties|options|log)$")).toList()) {
                String text = Files.readString(f, StandardCharsets.ISO_8859_1);
                for (String secret : secrets) {
                    assertThat(text).as(f.toString()).doesNotContain(secret);
                }
            }
        }
        // README suggests `server dump control`: the dump must not carry a secret in plain text either.
        Path dump = cell.var().resolve("control-dump.zip");
        assertThat(server("dump", "control", "--archive=" + dump)).isZero();
        List<String> found = new ArrayList<>();
        List<String> withKey = new ArrayList<>();
        String aesKey = Files.readString(cell.var().resolve("keys/liberty-aes-key.xml")).replaceAll("(?s).*value=\"([^\"]+)\".*", "$1");
        try (ZipFile zip = new ZipFile(dump.toFile())) {
            for (ZipEntry e : Collections.list(zip.entries())) {
                if (e.isDirectory()) {
                    continue;
                }
                try (InputStream in = zip.getInputStream(e)) {
                    String text = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
                    for (String secret : secrets) {
                        if (text.contains(secret)) {
                            found.add(e.getName());
                        }
                    }
                    if (text.contains(aesKey)) {
                        withKey.add(e.getName());
                    }
                }
            }
            System.out.println("server dump control: " + zip.size() + " entries; the cell's AES key in " + withKey);
            assertThat(zip.size()).isGreaterThan(5);
        }
        assertThat(found).as("dump entries with a secret in plain text").isEmpty();
    }

    @Test
    @Order(3)
    void the_admin_center_answers_on_its_loopback_https_port_only() throws Exception {
        HttpResponse<String> login = admin("gate", "/adminCenter/login.jsp", null);
        assertThat(login.statusCode()).isEqualTo(200);
        assertThat(login.body()).contains("Liberty Admin Center").contains("j_security_check");
        // Unauthenticated, the console sends the browser to its sign-in page.
        HttpResponse<String> console = admin("gate", "/adminCenter/", null);
        assertThat(console.statusCode()).as(console.headers().map().toString()).isIn(200, 302, 303);
        // Not on another address of this machine: the endpoint binds 127.0.0.1 only.
        Optional<InetAddress> other = nonLoopbackAddress();
        if (other.isPresent()) {
            assertThatThrownBy(() -> {
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress(other.get(), cell.port("gate" + Cell.ADMIN)), 3_000);
                }
            }).as("connecting to " + other.get()).isInstanceOf(ConnectException.class);
        }
    }

    @Test
    @Order(4)
    void with_the_administrators_password_the_rest_connector_and_ibm_api_list_the_servers_application() throws Exception {
        for (String c : List.of("gate", "runtime", "control")) {
            HttpResponse<String> mbeans = admin(c, "/IBMJMXConnectorREST/mbeans?objectName="
                    + URLEncoder.encode(APPLICATION_MBEAN + "*", StandardCharsets.UTF_8), password);
            assertThat(mbeans.statusCode()).as(c + ": " + mbeans.body()).isEqualTo(200);
            assertThat(mbeans.body()).as(c).contains("name=" + c);
            HttpResponse<String> state = admin(c, "/IBMJMXConnectorREST/mbeans/" + mbean(APPLICATION_MBEAN + c) + "/attributes/State", password);
            assertThat(state.statusCode()).as(state.body()).isEqualTo(200);
            assertThat(state.body()).as(c).contains("STARTED");
        }
        HttpResponse<String> config = admin("gate", "/ibm/api/config/webApplication", password);
        assertThat(config.statusCode()).as(config.body()).isEqualTo(200);
        assertThat(config.body()).contains("\"gate\"").contains("gate.war");
        HttpResponse<String> ear = admin("control", "/ibm/api/config/enterpriseApplication", password);
        assertThat(ear.statusCode()).as(ear.body()).isEqualTo(200);
        assertThat(ear.body()).contains("control.ear");
    }

    @Test
    @Order(5)
    void a_wrong_password_or_none_gets_401() throws Exception {
        for (String path : List.of("/IBMJMXConnectorREST/mbeans", "/ibm/api/config", "/metrics")) {
            assertThat(admin("gate", path, password + "x").statusCode()).as(path + " wrong password").isEqualTo(401);
            assertThat(admin("gate", path, null).statusCode()).as(path + " no password").isEqualTo(401);
        }
    }

    @Test
    @Order(6)
    void metrics_answer_with_the_administrators_password() throws Exception {
        HttpResponse<String> metrics = admin("gate", "/metrics?scope=application", password);
        assertThat(metrics.statusCode()).as(metrics.body()).isEqualTo(200);
        assertThat(metrics.body()).contains("qaldy_gate_access_memory_entries");
        assertThat(admin("gate", "/metrics", password).body()).contains("jvm_uptime_seconds");
    }

    @Test
    @Order(7)
    void on_the_public_http_port_no_administration_path_takes_the_password() throws Exception {
        String basic = "Basic " + Base64.getEncoder().encodeToString(("admin:" + password).getBytes(StandardCharsets.UTF_8));
        Path messages = cell.var().resolve("liberty/servers/gate/logs/messages.log");
        long from = Files.size(messages);
        for (String path : List.of("/adminCenter/", "/IBMJMXConnectorREST/mbeans", "/ibm/api/config", "/metrics")) {
            HttpResponse<String> plain = cell.send(cell.request(cell.publicHost(), path).header("Authorization", basic).GET().build());
            System.out.println("public HTTP port, " + path + " with the password: " + plain.statusCode() + " " + plain.headers().firstValue("Location").orElse(""));
            assertThat(plain.statusCode()).as(path + " on the public HTTP port: " + plain.headers().map()).isNotEqualTo(200).isNotEqualTo(401);
            assertThat(plain.body()).as(path).doesNotContain("qaldy_gate").doesNotContain("ApplicationMBean");
        }
        // The gate itself still answers on its public port.
        assertThat(cell.send(cell.request(cell.publicHost(), "/health/ready").GET().build()).statusCode()).isEqualTo(200);
        // Issue 21: a closed path is not an error of the server (it wrote CWWKS9113E, and a stack trace for /adminCenter, each time).
        assertThat(recordsSince(messages, from)).as("messages.log after the closed paths").noneMatch(r -> r.contains(" E "));
    }

    @Test
    @Order(8)
    void in_chromium_the_operator_signs_in_to_the_admin_center_and_explore_lists_the_gate() throws Exception {
        Path shots = cell.root().resolve("cell-tests/target/screenshots");
        Files.createDirectories(shots);
        String base = "https://127.0.0.1:" + cell.port("gate" + Cell.ADMIN) + "/adminCenter/";
        try (Chromium browser = new Chromium(cell.var().resolve("browser"))) {
            WebDriverWait wait = new WebDriverWait(browser.driver, Duration.ofSeconds(60));
            browser.driver.get(base);
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("j_username")));
            browser.driver.findElement(By.id("j_username")).sendKeys("admin");
            browser.driver.findElement(By.id("j_password")).sendKeys(password + "x");
            browser.driver.findElement(By.id("loginButton")).click();
            wait.until(ExpectedConditions.urlContains("login-error"));
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("body"), "unrecognized user name and/or password"));
            browser.screenshot(shots.resolve("liberty-admin-center-wrong-password.png"));

            browser.driver.findElement(By.id("j_username")).clear();
            browser.driver.findElement(By.id("j_username")).sendKeys("admin");
            browser.driver.findElement(By.id("j_password")).sendKeys(password);
            browser.driver.findElement(By.id("loginButton")).click();
            wait.until(d -> !d.getCurrentUrl().contains("login"));
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("body"), "Explore"));
            browser.screenshot(shots.resolve("liberty-admin-center-toolbox.png"));

            // Each tool runs in a frame of the toolbox (Explore: /ibm/adminCenter/explore-1.0).
            browser.driver.get(base + "#explore");
            try {
                WebDriverWait slow = new WebDriverWait(browser.driver, Duration.ofSeconds(120));
                slow.until(ExpectedConditions.frameToBeAvailableAndSwitchToIt(By.tagName("iframe")));
                slow.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("body"), "Applications"));
                Thread.sleep(2_000); // let the dashboard draw its cards before the picture
                browser.screenshot(shots.resolve("liberty-admin-center-explore.png"));
                // The dashboard names the server (also "gate"); its Applications view lists the application and its state.
                browser.driver.findElement(By.xpath("//*[normalize-space(text())='Applications']")).click();
                slow.until(d -> {
                    String text = d.findElement(By.tagName("body")).getText();
                    return text.contains("gate\nRunning"); // the application's card: its name, its state
                });
                Thread.sleep(2_000);
                browser.screenshot(shots.resolve("liberty-admin-center-explore-applications.png"));
                System.out.println("Admin Center, Explore, Applications: " + browser.driver.findElement(By.tagName("body")).getText().replace('\n', '|'));
            } catch (RuntimeException | AssertionError e) {
                browser.screenshot(shots.resolve("liberty-admin-center-explore-failed.png"));
                throw e;
            }
        }
    }

    /**
     * Stopping the gate's application from the admin side (the ApplicationMBean's stop operation,
     * the MBean Explore's Stop acts on): bin/qaldy sees the gate not ready (Liberty's /health/ready
     * says UP with no check), and starting it brings it back ready. Meanwhile Liberty itself answers
     * every path with its own 404 ("context root not found"): not what a stopped gate does (a refused
     * connection); pausing the server's HTTP endpoints (`server pause gate --target=…`) is, and is
     * checked last.
     */
    @Test
    @Order(9)
    void the_gates_application_stopped_and_started_through_the_rest_connector() throws Exception {
        String ops = "/IBMJMXConnectorREST/mbeans/" + mbean(APPLICATION_MBEAN + "gate") + "/operations/";
        HttpResponse<String> stop = adminPost("gate", ops + "stop", "{\"params\":[],\"signature\":[]}");
        assertThat(stop.statusCode()).as(stop.body()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() ->
                admin("gate", "/IBMJMXConnectorREST/mbeans/" + mbean(APPLICATION_MBEAN + "gate") + "/attributes/State", password).body().contains("STOPPED"));
        HttpResponse<String> ready = cell.send(cell.request(cell.publicHost(), "/health/ready").GET().build());
        HttpResponse<String> console = cell.send(cell.request(cell.publicHost(), "/console/").header("Accept", "text/html").GET().build());
        System.out.println("gate application stopped: /health/ready " + ready.statusCode() + " " + ready.body()
                + "; /console/ " + console.statusCode() + " " + console.body().substring(0, Math.min(200, console.body().length())));
        assertThat(ready.body()).as("Liberty's readiness with the application stopped").contains("\"checks\":[]");
        assertThat(console.statusCode()).as("Liberty's own answer while the gate's application is stopped").isEqualTo(404);
        assertThat(cell.qaldy("status")).containsPattern("gate\\s+\\d+\\s+" + cell.port("gate") + "\\s+not ready");

        HttpResponse<String> start = adminPost("gate", ops + "start", "{\"params\":[],\"signature\":[]}");
        assertThat(start.statusCode()).as(start.body()).isEqualTo(200);
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500)).until(() ->
                cell.send(cell.request(cell.publicHost(), "/health/ready").GET().build()).statusCode() == 200);
        assertThat(cell.qaldy("status")).containsPattern("gate\\s+\\d+\\s+" + cell.port("gate") + "\\s+ready");

        // Out of service as a stopped process is: the public and internal endpoints paused (connections refused), the admin one kept.
        assertThat(server("pause", "gate", "--target=defaultHttpEndpoint,internalHttpEndpoint")).isZero();
        assertThatThrownBy(() -> cell.send(cell.request(cell.publicHost(), "/health/ready").GET().build()))
                .as("the public port while paused").isInstanceOf(ConnectException.class);
        assertThat(admin("gate", "/IBMJMXConnectorREST/mbeans/" + mbean(APPLICATION_MBEAN + "gate") + "/attributes/State", password).statusCode()).isEqualTo(200);
        assertThat(server("resume", "gate")).isZero();
        await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(500)).ignoreExceptions().until(() ->
                cell.send(cell.request(cell.publicHost(), "/health/ready").GET().build()).statusCode() == 200);
    }

    /**
     * README's "change a qaldy.* setting and restart": a Liberty variable in the server's operator.xml
     * (what Server Config edits; bin/qaldy never replaces the file) overrides the -Dqaldy.* property
     * once the application restarts (the ApplicationMBean's restart, Explore's Restart).
     */
    @Test
    @Order(10)
    void a_qaldy_setting_in_operator_xml_reaches_the_gate_when_its_application_restarts() throws Exception {
        Path operator = cell.var().resolve("liberty/servers/gate/operator.xml");
        assertThat(operator).isRegularFile();
        assertThat(settings()).contains("\"pollIntervalMs\":15000");
        Files.writeString(operator, Files.readString(operator).replace("</server>",
                "  <variable name=\"qaldy.console.poll-interval\" value=\"PT7S\"/>\n</server>"));
        Thread.sleep(8_000); // Liberty looks at its config files every 5 s (qaldy-common.xml)
        String ops = "/IBMJMXConnectorREST/mbeans/" + mbean(APPLICATION_MBEAN + "gate") + "/operations/";
        HttpResponse<String> restart = adminPost("gate", ops + "restart", "{\"params\":[],\"signature\":[]}");
        assertThat(restart.statusCode()).as(restart.body()).isEqualTo(200);
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                .until(() -> settings().contains("\"pollIntervalMs\":7000"));
    }

    /**
     * Issue 21: Liberty's HTTP channel knows RFC 2616's codes only and wrote {@code HTTP/1.1 429 Undefined};
     * the gate and the control plane add the standard phrases to its table at start ({@code ReasonPhrases}), as on Payara.
     */
    @Test
    @Order(11)
    void a_rate_limited_client_reads_429_too_many_requests() throws Exception {
        int port = cell.port("gate");
        String request = "GET / HTTP/1.1\r\nHost: ratelimited.localhost:" + port
                + "\r\nUser-Agent: qaldy-cell-test\r\nAccept: text/html\r\nConnection: close\r\n\r\n";
        String first = PublishAndOpenIT.raw(port, request);
        assertThat(first).as("the bucket's one request").doesNotStartWith("HTTP/1.1 429");
        String second = PublishAndOpenIT.raw(port, request);
        System.out.println("the shield's refusal on Liberty: " + second.lines().findFirst().orElse(""));
        assertThat(second.lines().findFirst()).hasValue("HTTP/1.1 429 Too Many Requests");
        assertThat(second).containsIgnoringCase("X-Qaldy-Shield: rate-limit");

        // The control plane's own 429 (failed sign-ins for one email), asked directly as the gate asks it.
        int control = cell.port("control");
        String signIn = "{\"email\":\"nobody@example.com\",\"password\":\"not-the-password\"}";
        String line = "";
        for (int i = 0; i < 10 && !line.startsWith("HTTP/1.1 429"); i++) {
            line = PublishAndOpenIT.raw(control, "POST /api/v1/sessions HTTP/1.1\r\nHost: 127.0.0.1:" + control
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + signIn.length() + "\r\nConnection: close\r\n\r\n" + signIn)
                    .lines().findFirst().orElse("");
        }
        assertThat(line).isEqualTo("HTTP/1.1 429 Too Many Requests");
    }

    /**
     * Issue 21: a database outage is expected (the API answers 503 and recovers by itself), so the control
     * plane says it once when it begins and once when it ends; a 91 s outage had written 10 FFDC incidents
     * and 1.3 MB of log. Two outages, each with a person asking the control plane throughout (a read, a
     * write and a refusal, the calls the gate makes for people): messages.log gets no error line and a few
     * KB; the only incidents are Liberty's connection pool's own first failure to connect of the server's
     * life (it reports that from its own code, once per cause: README), none from the application, and the
     * second outage adds none at all.
     */
    @Test
    @Order(12)
    void a_database_outage_is_one_warning_and_one_line_and_no_incident_of_the_application() throws Exception {
        Path logs = cell.var().resolve("liberty/servers/control/logs");
        Path messages = logs.resolve("messages.log");
        Person person = Person.signUp(cell, "outage@example.com");
        assertThat(person.api("POST", "/apps", "{\"name\":\"before\"}").statusCode()).isEqualTo(201);
        long from = Files.size(messages);
        Set<String> before = incidents(logs);
        Set<String> afterFirst = null;
        List<String> answers = new ArrayList<>();
        for (int outage = 1; outage <= 2; outage++) {
            cell.qaldy("stop", "db");
            long until = System.nanoTime() + Duration.ofSeconds(8).toNanos();
            for (int i = 0; System.nanoTime() < until; i++) {
                answers.add(direct(person, "GET", "/api/v1/apps", null) + " " + direct(person, "GET", "/api/v1/apps/nosuch" + i, null)
                        + " " + direct(person, "POST", "/api/v1/apps", "{\"name\":\"during" + outage + "x" + i + "\"}"));
                Thread.sleep(250);
            }
            cell.qaldy("start", "db");
            await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(250))
                    .until(() -> direct(person, "GET", "/api/v1/apps", null) == 200);
            if (outage == 1) {
                afterFirst = incidents(logs);
            }
        }
        System.out.println("calls during the outages (list, unknown app, create): " + answers);
        assertThat(answers).as("every call during the outages was refused as an outage").allMatch(a -> a.equals("503 503 503"));
        assertThat(direct(person, "GET", "/api/v1/apps/nosuch", null)).isEqualTo(404);

        Set<String> added = new java.util.TreeSet<>(afterFirst);
        added.removeAll(before);
        List<String> sources = new ArrayList<>();
        for (String incident : added) {
            String text = Files.readString(logs.resolve("ffdc").resolve(incident), StandardCharsets.ISO_8859_1);
            sources.add(text.replaceAll("(?s).*?\nSource = ([^\n]+)\n.*", "$1"));
        }
        System.out.println("FFDC incidents of the first outage: " + added + " from " + sources);
        assertThat(sources).as("incidents of the first outage: only Liberty's pool failing to connect").hasSizeLessThanOrEqualTo(4)
                .allMatch(source -> POOL_SOURCES.stream().anyMatch(source::startsWith));
        assertThat(incidents(logs)).as("the second outage adds no incident").isEqualTo(afterFirst);

        List<String> records = recordsSince(messages, from);
        long bytes = Files.size(messages) - from;
        System.out.println("messages.log across two outages: " + bytes + " bytes, " + records.size() + " records:\n  "
                + String.join("\n  ", records.stream().map(r -> r.substring(0, Math.min(220, r.length()))).toList()));
        assertThat(records).as("no error line").noneMatch(r -> r.contains(" E "));
        assertThat(records).filteredOn(r -> r.contains("W database unreachable")).hasSize(2);
        assertThat(records).filteredOn(r -> r.contains("I database answers again")).hasSize(2);
        assertThat(records).as("nothing per refused call").hasSizeLessThanOrEqualTo(20);
        assertThat(bytes).as("bytes of messages.log across two outages").isLessThan(16_000);
    }

    /** Where Liberty's connection manager reports a connection it could not open (FFDC "Source = …"). */
    static final List<String> POOL_SOURCES = List.of("com.ibm.ws.rsadapter.impl.WSManagedConnectionFactoryImpl",
            "com.ibm.ejs.j2c.poolmanager.FreePool.createManagedConnectionWithMCWrapper",
            "com.ibm.ws.rsadapter.jdbc.WSJdbcDataSource.getConnection");

    /**
     * Issue 21: README tells operators to use Liberty's own {@code server} script; a server it started
     * (Liberty's pid file, no bin/qaldy pid file) was invisible to bin/qaldy: status said stopped, start
     * failed on a taken port and down left it running.
     */
    @Test
    @Order(13)
    void a_server_started_with_libertys_own_script_is_shown_not_started_twice_and_stopped_by_bin_qaldy() throws Exception {
        cell.qaldy("stop", "runtime");
        assertThat(server("start", "runtime")).isZero();
        long pid = Long.parseLong(Files.readString(cell.var().resolve("liberty/servers/.pid/runtime.pid")).trim());
        String shown = "runtime\\s+" + pid + "\\s+" + cell.port("runtime") + "\\s+ready\\s+liberty, started with Liberty's 'server start'";
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500)).until(() -> cell.qaldy("status").lines()
                .anyMatch(l -> l.matches(shown + ".*")));
        Cell.Run again = cell.run(Map.of(), Duration.ofMinutes(2), "start", "runtime");
        assertThat(again.exit()).as(again.output()).isZero();
        assertThat(again.output()).contains("runtime is already running (pid " + pid);

        String stopped = cell.qaldy("stop", "runtime");
        assertThat(stopped).contains("runtime stopped (pid " + pid);
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("Liberty's server process").isFalse();
        assertThat(cell.qaldy("status")).containsPattern("runtime\\s+-\\s+" + cell.port("runtime") + "\\s+stopped");
        assertThat(cell.qaldy("start", "runtime")).contains("runtime ready on port " + cell.port("runtime"));
    }

    /** The FFDC incident files of a server's logs folder (not its exception summaries). */
    static Set<String> incidents(Path logs) throws IOException {
        Path ffdc = logs.resolve("ffdc");
        if (!Files.isDirectory(ffdc)) {
            return Set.of();
        }
        try (Stream<Path> files = Files.list(ffdc)) {
            return files.map(f -> f.getFileName().toString()).filter(n -> n.startsWith("ffdc_"))
                    .collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new));
        }
    }

    /** The records Liberty wrote to {@code log} after byte {@code from}: each line that starts one ("[date] thread logger level …"). */
    static List<String> recordsSince(Path log, long from) throws IOException {
        byte[] all = Files.readAllBytes(log);
        String added = new String(all, (int) Math.min(from, all.length), (int) Math.max(0, all.length - from), StandardCharsets.UTF_8);
        return added.lines().filter(l -> l.startsWith("[")).toList();
    }

    /** A call straight to the control plane as {@code person} (as the gate makes it for them); its status. */
    static int direct(Person person, String method, String path, String json) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + cell.port("control") + path))
                .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + person.token());
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        return cell.send(request.method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(json)).build()).statusCode();
    }

    static String settings() throws IOException, InterruptedException {
        HttpResponse<String> r = cell.send(cell.request(cell.publicHost(), "/console/settings.json").GET().build());
        return r.statusCode() + " " + r.body();
    }

    /** Liberty's own {@code server ARGS…} script on this cell's user folder; its exit code. */
    static int server(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Cell.repository().resolve("cell-tests/target/liberty/wlp/bin/server").toString()));
        command.addAll(List.of(args));
        Path out = cell.var().resolve("server-" + args[0] + ".out");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile());
        builder.environment().put("WLP_USER_DIR", cell.var().resolve("liberty").toString());
        Process p = builder.start();
        assertThat(p.waitFor(3, java.util.concurrent.TimeUnit.MINUTES)).as(String.join(" ", args)).isTrue();
        System.out.println("server " + String.join(" ", args) + ": " + Files.readString(out).trim());
        return p.exitValue();
    }

    // ---- helpers --------------------------------------------------------------------------------

    /** The three secrets of the cell a Liberty server uses: the administrator's, the keystore's and the database's passwords. */
    static List<String> secrets() throws IOException {
        List<String> secrets = new ArrayList<>();
        for (String f : List.of("liberty-admin-password", "liberty-keystore-password", "db-password")) {
            String s = Files.readString(cell.var().resolve("keys").resolve(f)).trim();
            assertThat(s).as(f).hasSizeGreaterThanOrEqualTo(24);
            secrets.add(s);
        }
        return secrets;
    }

    static String mbean(String objectName) {
        return URLEncoder.encode(objectName, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** GET on a component's admin endpoint (https://127.0.0.1:ADMIN_PORT), as the administrator when {@code password} is not null. */
    static HttpResponse<String> admin(String component, String path, String password) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + cell.port(component + Cell.ADMIN) + path))
                .timeout(Duration.ofSeconds(30)).GET();
        if (password != null) {
            request.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(("admin:" + password).getBytes(StandardCharsets.UTF_8)));
        }
        return https.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    static HttpResponse<String> adminPost(String component, String path, String json) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + cell.port(component + Cell.ADMIN) + path))
                .timeout(Duration.ofSeconds(60)).header("Content-Type", "application/json")
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(("admin:" + password).getBytes(StandardCharsets.UTF_8)))
                .POST(HttpRequest.BodyPublishers.ofString(json)).build();
        return https.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    /** A TLS context that trusts the cell's admin certificate only (var/keys/liberty-admin.crt.pem). */
    static SSLContext trusting(Path certificate) throws Exception {
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(certificate)) {
            trust.setCertificateEntry("cell-admin", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, tmf.getTrustManagers(), null);
        return context;
    }

    static Optional<InetAddress> nonLoopbackAddress() throws IOException {
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!nic.isUp() || nic.isLoopback()) {
                continue;
            }
            for (InetAddress a : Collections.list(nic.getInetAddresses())) {
                if (a instanceof Inet4Address) {
                    return Optional.of(a);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Headless Debian Chromium as the drill's Browser starts it, accepting the cell's self-signed
     * admin certificate (a browser of the operator's would be told to trust liberty-admin.crt.pem).
     */
    static final class Chromium implements AutoCloseable {
        final ChromeDriver driver;
        private final ChromeDriverService service;

        Chromium(Path profileParent) throws IOException {
            Path profile = Files.createTempDirectory(Files.createDirectories(profileParent), "chromium-");
            service = new ChromeDriverService.Builder().usingDriverExecutable(new File("/usr/bin/chromedriver")).usingAnyFreePort().build();
            ChromeOptions options = new ChromeOptions();
            options.setBinary("/usr/bin/chromium");
            options.setAcceptInsecureCerts(true);
            options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--disable-quic", "--no-first-run", "--window-size=1280,900", "--user-data-dir=" + profile);
            driver = new ChromeDriver(service, options);
            driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60));
        }

        void screenshot(Path file) throws IOException {
            Files.write(file, ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
        }

        @Override
        public void close() {
            try {
                driver.quit();
            } finally {
                service.stop();
            }
        }
    }
}
