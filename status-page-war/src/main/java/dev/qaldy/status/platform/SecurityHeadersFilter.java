package dev.qaldy.status.platform;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Headers on every answer: the page may load only its own files and talk only to its own origin
 * (no CDN, nothing from the cell), may not be framed, and is revalidated on every load.
 */
@WebFilter(urlPatterns = "/*")
public class SecurityHeadersFilter extends HttpFilter {

    private static final long serialVersionUID = 1L;

    /** Only the page's own scripts, styles and API; no inline code. */
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        response.setHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("X-Frame-Options", "DENY");
        response.setHeader("Referrer-Policy", "no-referrer");
        String path = request.getRequestURI();
        response.setHeader("Cache-Control", path.startsWith(request.getContextPath() + "/api/") ? "no-store" : "no-cache");
        chain.doFilter(request, response);
    }
}
