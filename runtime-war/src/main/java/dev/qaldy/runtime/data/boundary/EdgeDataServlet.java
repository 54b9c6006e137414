package dev.qaldy.runtime.data.boundary;

import dev.qaldy.contract.apps.AppLabel;
import dev.qaldy.contract.data.DataBookmarks;
import dev.qaldy.contract.keys.ServiceDirection;
import dev.qaldy.runtime.data.control.DataReplica;
import dev.qaldy.runtime.platform.CellCredentials;
import dev.qaldy.runtime.platform.ErrorPages;
import dev.qaldy.runtime.platform.ServiceRefusal;
import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code GET /.qaldy/edge-data/<collection>[/<id>][?limit=…&after=…]} (gate-to-runtime credential,
 * {@code X-Qaldy-App}): a read of an app's data from this host's {@link DataReplica}, which the gate
 * asks when an app's origin reads {@code /.qaldy/data/…} and the control plane cannot be asked (issue 18).
 * The gate checked the person; the app is the one it names. 200 or 404 in the data API's shapes with
 * {@link DataBookmarks}' headers ({@code X-Qaldy-Data: replica}, its as-of and bookmark); 503 when the
 * replica cannot answer (not whole for the app, out of touch past its bound, older than the reader's
 * bookmark). Any other method is 405.
 */
@WebServlet(name = "edge-data", urlPatterns = EdgeDataServlet.PATH + "*")
public class EdgeDataServlet extends HttpServlet {

    public static final String PATH = "/.qaldy/edge-data/";
    static final Pattern TARGET = Pattern.compile(Pattern.quote(PATH) + "([a-z0-9-]{1,40})(?:/([0-9]{1,19}))?");
    static final Pattern QUERY = Pattern.compile("(?:(?:limit|after)=[0-9]{1,19})(?:&(?:limit|after)=[0-9]{1,19})?");
    private static final long serialVersionUID = 1L;

    @Inject
    transient CellCredentials credentials;

    @Inject
    transient DataReplica replica;

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (!ServiceRefusal.admitted(credentials.check(request.getHeader(ServiceDirection.HEADER), ServiceDirection.GATE_TO_RUNTIME),
                request, response, credentials, "a data read")) {
            return;
        }
        if (!"GET".equals(request.getMethod())) {
            response.setHeader("Allow", "GET");
            ErrorPages.write(response, 405, "method-not-allowed", "Method not allowed", "The replica answers reads only.", null);
            return;
        }
        String app = request.getHeader("X-Qaldy-App");
        Matcher target = TARGET.matcher(request.getRequestURI());
        String query = request.getQueryString();
        if (!AppLabel.valid(app) || !target.matches() || (query != null && !query.isEmpty() && !QUERY.matcher(query).matches())) {
            ErrorPages.write(response, 400, "bad-request", "Bad request", "A read is /.qaldy/edge-data/<collection>[/<id>] for the app "
                    + "in X-Qaldy-App, with limit and after only.", null);
            return;
        }
        long floor = DataBookmarks.parse(request.getHeader(DataBookmarks.HEADER)).orElse(-1);
        Optional<DataReplica.Answer> answer = replica.read(app, target.group(1), target.group(2), query, floor);
        if (answer.isEmpty()) {
            response.setHeader("Retry-After", "30");
            ErrorPages.write(response, 503, "data-unavailable", "Temporarily unavailable",
                    "This host's copy of the app's data cannot answer this read now.", null);
            return;
        }
        byte[] body = answer.get().json().getBytes(StandardCharsets.UTF_8);
        response.setStatus(answer.get().status());
        response.setContentType(answer.get().status() == 200 ? "application/json" : "application/problem+json");
        response.setHeader("Cache-Control", "no-store");
        response.setHeader(DataBookmarks.HEADER, Long.toString(answer.get().bookmark()));
        response.setHeader(DataBookmarks.SOURCE, DataBookmarks.REPLICA);
        response.setHeader(DataBookmarks.AS_OF, answer.get().asOf().toString());
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
