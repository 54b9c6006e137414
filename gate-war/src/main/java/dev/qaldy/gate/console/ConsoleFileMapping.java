package dev.qaldy.gate.console;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.annotation.WebListener;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.logging.Logger;

/**
 * One servlet mapped to every path ({@code /*}) in front of the server's default servlet, so the
 * server never looks an app's path up among the gate WAR's own files. Payara's request mapper
 * (Grizzly's {@code Mapper}) does that for every request no servlet maps: its welcome-file rule for
 * a path ending in {@code /}, its folder-redirect rule for any other, each throwing and catching a
 * {@code NamingException} when the file does not exist — that is, for every request to an app
 * (issue 15: 4.5 % of the gate's CPU at 8,000 req/s). What the gate filter lets through (the
 * console's files) goes on to the default servlet by name; a folder to its {@code index.html}, as
 * the welcome-file list says. Registered only where the server names its default servlet
 * {@code default} (Payara does); elsewhere (Open Liberty) the default servlet keeps every path.
 */
@WebListener
public class ConsoleFileMapping implements ServletContextListener {

    /** The name Payara (and Tomcat) give the default servlet. */
    static final String DEFAULT_SERVLET = "default";
    private static final String INDEX = "index.html";
    private static final Logger LOG = Logger.getLogger(ConsoleFileMapping.class.getName());

    @Override
    public void contextInitialized(ServletContextEvent event) {
        ServletContext context = event.getServletContext();
        RequestDispatcher files = context.getNamedDispatcher(DEFAULT_SERVLET);
        if (files == null) {
            LOG.fine("gate: the server names no default servlet 'default'; its own mapping serves the console");
            return;
        }
        ServletRegistration.Dynamic servlet = context.addServlet("gate-files", new Files(files));
        servlet.addMapping("/*");
    }

    /** Hands a request to the default servlet; a folder's request to the folder's {@code index.html}. */
    static final class Files extends HttpServlet {

        private static final long serialVersionUID = 1L;
        private final transient RequestDispatcher files;

        Files(RequestDispatcher files) {
            this.files = files;
        }

        @Override
        protected void service(HttpServletRequest req, HttpServletResponse res) throws ServletException, IOException {
            String path = req.getServletPath() + (req.getPathInfo() == null ? "" : req.getPathInfo());
            if (path.endsWith("/")) {
                req.getRequestDispatcher(path + INDEX).forward(req, res);
            } else {
                files.forward(req, res);
            }
        }
    }
}
