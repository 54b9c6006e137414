package dev.qaldy.bench.floor;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Issue 15's floor figure F: the cheapest answer the server can give, a fixed 1.4 KB page for every
 * path, measured on the gate's own server, JVM flags and listener settings (bench/run deploys it
 * as gate2). What the gate costs beyond it is the gate's own code.
 */
@WebServlet(urlPatterns = "/")
public class Floor extends HttpServlet {

    private static final long serialVersionUID = 1L;
    private static final byte[] PAGE = page();

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse res) throws IOException {
        res.setStatus(200);
        res.setContentType("text/html");
        res.setContentLength(PAGE.length);
        res.getOutputStream().write(PAGE);
    }

    private static byte[] page() {
        StringBuilder page = new StringBuilder("<!doctype html><html><head><title>bench</title></head><body>");
        for (int i = 1; page.length() < 1380; i++) {
            page.append(String.format("%n<p>Line %02d of the benchmark page, about fifty bytes.</p>", i));
        }
        page.setLength(1380);
        return page.append("\n</body></html>\n").toString().getBytes(StandardCharsets.UTF_8);
    }
}
