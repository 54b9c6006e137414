package dev.qaldy.soak.faults;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/**
 * Whether a component of the cell is ready, as {@code bin/qaldy status} says it: the database
 * when its TCP port accepts, every other component when its {@code /health/ready} answers 200.
 */
public final class Readiness {

    private final Map<String, Integer> ports;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** @param ports each component's port on 127.0.0.1 */
    public Readiness(Map<String, Integer> ports) {
        this.ports = Map.copyOf(ports);
    }

    /** Whether {@code component} answers ready ({@code /health/ready} 200; the database: its TCP port) now. */
    public boolean ready(String component) {
        Integer port = ports.get(component);
        if (port == null) {
            return false;
        }
        if (component.equals("db")) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
                return true;
            } catch (IOException e) {
                return false;
            }
        }
        try {
            HttpResponse<Void> answer = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health/ready"))
                    .timeout(Duration.ofSeconds(3)).build(), HttpResponse.BodyHandlers.discarding());
            return answer.statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Whether {@code component} answers ready within {@code bound}, asked every 500 ms: a control
     * plane on a loaded machine may answer one readiness check DOWN (a write-lock probe over its
     * 1 s) and the next UP.
     */
    public boolean readyWithin(String component, Duration bound) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (!ready(component)) {
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            Thread.sleep(500);
        }
        return true;
    }

    public Map<String, Integer> ports() {
        return ports;
    }
}
