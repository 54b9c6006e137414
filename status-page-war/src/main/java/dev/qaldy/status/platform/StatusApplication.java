package dev.qaldy.status.platform;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The status page's JSON API lives under {@code /api}; the page itself is static files at {@code /}. */
@ApplicationPath("api")
public class StatusApplication extends Application {
}
