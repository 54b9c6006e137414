package dev.qaldy.contract.http;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** The edge's own {@code application/json} answers to the cell's services: written whole, never cached. */
public final class JsonAnswer {

    private JsonAnswer() {
    }

    /** {@code status}, {@code application/json}, {@code Cache-Control: no-store}, the length, {@code json}; other headers are the caller's, set before. */
    public static void write(HttpServletResponse res, int status, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        res.setStatus(status);
        res.setContentType("application/json");
        res.setHeader("Cache-Control", "no-store");
        res.setContentLength(body.length);
        try (OutputStream out = res.getOutputStream()) {
            out.write(body);
        }
    }
}
