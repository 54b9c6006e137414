package dev.qaldy.control.platform.boundary;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The control plane's JAX-RS application: everything under {@code /api/v1} (the WAR sits at context root "/"). */
@ApplicationPath("/api/v1")
public class QaldyApi extends Application {
}
