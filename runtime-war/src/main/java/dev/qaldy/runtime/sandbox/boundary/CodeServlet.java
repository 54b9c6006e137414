package dev.qaldy.runtime.sandbox.boundary;

import dev.qaldy.runtime.bundles.control.AppCode;
import dev.qaldy.runtime.cap.RunCap;
import dev.qaldy.runtime.platform.CellCredentials;
import dev.qaldy.runtime.sandbox.control.JsonDepth;
import dev.qaldy.runtime.sandbox.control.Sandbox;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServlet;
import java.time.Duration;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The host's doors into an app's live code ({@code SiteServlet} for the gate's requests,
 * {@link JobServlet} for the control plane's job runs): what both need to admit a call, find the
 * code, run it in the sandbox within the spending cap and answer a refusal.
 */
public abstract class CodeServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Inject
    protected transient CellCredentials credentials;
    @Inject
    protected transient AppCode appCode;
    @Inject
    protected transient Sandbox sandbox;
    @Inject
    protected transient RunCap cap;
    @Inject
    protected transient Logger log;
    /** The {@code Retry-After} of a 503 the host answers for itself. */
    @Inject
    @ConfigProperty(name = "qaldy.runtime.retry-after", defaultValue = "PT30S")
    protected transient Duration retryAfter;
    /** Deepest JSON parsed for the app's code, in levels of arrays and objects ({@link JsonDepth}). */
    @Inject
    @ConfigProperty(name = "qaldy.runtime.max-json-depth", defaultValue = "256")
    protected transient int maxJsonDepth = JsonDepth.DEFAULT_MAX;

    protected CodeServlet() {
    }

    /** As CDI wires it; for tests. */
    protected CodeServlet(CellCredentials credentials, AppCode appCode, Sandbox sandbox, RunCap cap, Logger log,
            Duration retryAfter, int maxJsonDepth) {
        this.credentials = credentials;
        this.appCode = appCode;
        this.sandbox = sandbox;
        this.cap = cap;
        this.log = log;
        this.retryAfter = retryAfter;
        this.maxJsonDepth = maxJsonDepth;
    }
}
