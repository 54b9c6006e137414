package dev.qaldy.bench.floor;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * Issue 15's raw relay floor P-raw: the least any relay can do on this server, with no HTTP client
 * library at all: one kept-alive socket per request thread to the upstream ({@code bench.relay.upstream}),
 * a fixed GET written, the answer's head read up to its blank line, its {@code Content-Length} body
 * copied back. It knows only what the bench's nginx upstream answers (no chunking, no errors); it is a
 * measuring stick, never a way to proxy. What P costs beyond it is the client library's own work.
 */
@WebServlet(urlPatterns = "/rawrelay/*")
public class RawRelay extends HttpServlet {

    private static final long serialVersionUID = 1L;
    private static final URI UPSTREAM = URI.create(System.getProperty("bench.relay.upstream", "http://127.0.0.1:1"));
    private static final ThreadLocal<Connection> CONNECTION = new ThreadLocal<>();

    private static final class Connection {
        final Socket socket;
        final InputStream in;
        final OutputStream out;
        final byte[] buffer = new byte[16 * 1024];

        Connection() throws IOException {
            socket = new Socket();
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(UPSTREAM.getHost(), UPSTREAM.getPort()), 2_000);
            in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
            out = socket.getOutputStream();
        }
    }

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse res) throws IOException {
        Connection c = CONNECTION.get();
        if (c == null || c.socket.isClosed()) {
            c = new Connection();
            CONNECTION.set(c);
        }
        String path = req.getPathInfo() == null ? "/" : req.getPathInfo();
        byte[] request = ("GET " + path + " HTTP/1.1\r\nHost: " + UPSTREAM.getHost() + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
        c.out.write(request);
        c.out.flush();
        String head = readHead(c);
        if (head == null) { // the upstream closed a kept-alive connection before this request: once more, on a new one
            c.socket.close();
            c = new Connection();
            CONNECTION.set(c);
            c.out.write(request);
            c.out.flush();
            head = readHead(c);
            if (head == null) {
                c.socket.close();
                CONNECTION.remove();
                res.sendError(502);
                return;
            }
        }
        int status = Integer.parseInt(head.substring(9, 12));
        int length = Integer.parseInt(header(head, "content-length"));
        res.setStatus(status);
        res.setContentType(header(head, "content-type"));
        res.setContentLength(length);
        OutputStream out = res.getOutputStream();
        for (int left = length; left > 0; ) {
            int n = c.in.read(c.buffer, 0, Math.min(left, c.buffer.length));
            if (n < 0) {
                throw new IOException("the upstream closed mid-body");
            }
            out.write(c.buffer, 0, n);
            left -= n;
        }
        if ("close".equalsIgnoreCase(header(head, "connection"))) { // nginx's last request on a kept-alive connection
            c.socket.close();
            CONNECTION.remove();
        }
    }

    private static String readHead(Connection c) throws IOException {
        StringBuilder head = new StringBuilder(256);
        int state = 0;
        while (state < 4) {
            int b = c.in.read();
            if (b < 0) {
                return null;
            }
            head.append((char) b);
            state = (b == '\r' && (state == 0 || state == 2)) || (b == '\n' && (state == 1 || state == 3)) ? state + 1 : 0;
        }
        return head.toString();
    }

    private static String header(String head, String name) {
        for (String line : head.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                return line.substring(colon + 1).trim();
            }
        }
        return "0";
    }
}
