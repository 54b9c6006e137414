package dev.qaldy.control.platform.control;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URI;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Public addresses: every app lives on its own origin,
 * {@code <scheme>://<app>.<qaldy.base-domain>:<port of qaldy.public-url>/}.
 */
@ApplicationScoped
public class PublicUrls {

    @Inject
    @ConfigProperty(name = "qaldy.public-url", defaultValue = "http://localhost:8080")
    String publicUrl;

    @Inject
    @ConfigProperty(name = "qaldy.base-domain", defaultValue = "localhost")
    String baseDomain;

    /** The origin of app {@code name}, with a trailing slash. */
    public String app(String name) {
        return appUrl(URI.create(publicUrl), baseDomain, name);
    }

    /** The app origin rule on its own, for tests. */
    public static String appUrl(URI publicUrl, String baseDomain, String name) {
        String scheme = publicUrl.getScheme() == null ? "http" : publicUrl.getScheme();
        int port = publicUrl.getPort();
        return scheme + "://" + name + "." + baseDomain + (port > 0 ? ":" + port : "") + "/";
    }
}
