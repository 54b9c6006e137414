package dev.qaldy.gate.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A tiny HTTP/1.1 client over a socket: any Host header, any header, no normalisation. */
final class RawHttp {

    /** A response: status, headers by lower-case name, decoded body, and the status line as sent. */
    record Reply(int status, Map<String, List<String>> headers, byte[] body, String statusLine) {
        String header(String name) {
            List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
            return values == null ? null : values.get(0);
        }

        List<String> all(String name) {
            return headers.getOrDefault(name.toLowerCase(Locale.ROOT), List.of());
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private RawHttp() {
    }

    /** Sends one request with {@code Connection: close}; {@code headers} are "Name: value" lines. */
    static Reply send(int port, String method, String target, List<String> headers, byte[] body, boolean chunked)
            throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(60_000);
            OutputStream out = socket.getOutputStream();
            StringBuilder head = new StringBuilder(method + " " + target + " HTTP/1.1\r\n");
            headers.forEach(h -> head.append(h).append("\r\n"));
            head.append("Connection: close\r\n");
            if (body != null && chunked) {
                head.append("Transfer-Encoding: chunked\r\n");
            } else if (body != null) {
                head.append("Content-Length: ").append(body.length).append("\r\n");
            }
            out.write(head.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            // The body goes on its own thread: the gate may answer (413) before reading all of it.
            Thread writer = new Thread(() -> {
                try {
                    if (body != null) {
                        writeBody(out, body, chunked);
                        out.flush();
                    }
                } catch (IOException e) {
                    // the gate stopped reading; its answer is what counts
                }
            });
            writer.setDaemon(true);
            writer.start();
            return read(socket.getInputStream(), "HEAD".equals(method));
        }
    }

    private static void writeBody(OutputStream out, byte[] body, boolean chunked) throws IOException {
        if (!chunked) {
            out.write(body);
            return;
        }
        for (int off = 0; off < body.length; off += 65536) {
            int n = Math.min(65536, body.length - off);
            out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.write(body, off, n);
            out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
        }
        out.write("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
    }

    private static Reply read(InputStream in, boolean head) throws IOException {
        String status = line(in);
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (String line = line(in); !line.isEmpty(); line = line(in)) {
            int colon = line.indexOf(':');
            headers.computeIfAbsent(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                    .add(line.substring(colon + 1).trim());
        }
        byte[] body;
        List<String> te = headers.get("transfer-encoding");
        if (head) {
            body = new byte[0];
        } else if (te != null && te.get(0).equalsIgnoreCase("chunked")) {
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            for (int size = Integer.parseInt(line(in).split(";")[0].trim(), 16); size > 0;
                    size = Integer.parseInt(line(in).split(";")[0].trim(), 16)) {
                all.write(in.readNBytes(size));
                line(in);
            }
            body = all.toByteArray();
        } else {
            body = in.readAllBytes();
        }
        return new Reply(Integer.parseInt(status.split(" ")[1]), headers, body, status);
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int c = in.read(); c != -1 && c != '\n'; c = in.read()) {
            if (c != '\r') {
                line.write(c);
            }
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }
}
