package dev.qaldy.bench.floor;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.pool.PoolConcurrencyPolicy;

/**
 * Issue 15's relay floor P: the least a relay on this server can do, with the client the gate uses
 * (Apache HttpClient 5 classic, pooled keep-alive connections, on the request thread) and none of the
 * gate's rules: every request under {@code /relay/} is sent as a GET to the upstream named by the
 * system property {@code bench.relay.upstream} (e.g. {@code http://127.0.0.1:18480}), and its status,
 * content type and body are copied back. What the gate costs beyond P is its own rules; what P costs
 * beyond F is the second HTTP exchange any relay pays.
 */
@WebServlet(urlPatterns = "/relay/*")
public class Relay extends HttpServlet {

    private static final long serialVersionUID = 1L;
    private static final String UPSTREAM = System.getProperty("bench.relay.upstream", "");
    private static final CloseableHttpClient HTTP = HttpClients.custom()
            .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
                    .setPoolConcurrencyPolicy(PoolConcurrencyPolicy.LAX)
                    .setMaxConnTotal(256).setMaxConnPerRoute(128)
                    .setDefaultSocketConfig(SocketConfig.custom().setTcpNoDelay(true).build())
                    .build())
            .disableAutomaticRetries().disableRedirectHandling().disableCookieManagement()
            .disableContentCompression().disableAuthCaching().disableConnectionState().disableDefaultUserAgent()
            .build();

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse res) throws IOException {
        if (UPSTREAM.isEmpty()) {
            res.sendError(500, "bench.relay.upstream is not set");
            return;
        }
        String path = req.getPathInfo();
        try (ClassicHttpResponse up = HTTP.executeOpen(null, new HttpGet(UPSTREAM + (path == null ? "/" : path)), null)) {
            res.setStatus(up.getCode());
            Header type = up.getFirstHeader("Content-Type");
            if (type != null) {
                res.setContentType(type.getValue());
            }
            HttpEntity entity = up.getEntity();
            if (entity != null) {
                if (entity.getContentLength() >= 0) {
                    res.setContentLengthLong(entity.getContentLength());
                }
                try (InputStream in = entity.getContent()) {
                    OutputStream out = res.getOutputStream();
                    in.transferTo(out);
                }
            }
        }
    }
}
