package dev.qaldy.runtime.testing;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Just enough of the Servlet API to drive a servlet without a container. */
public final class FakeHttp {

    private FakeHttp() {
    }

    /** A request; {@code uri} may carry a query after {@code ?}. */
    public static HttpServletRequest request(String method, String uri, Map<String, String> headers, byte[] body) {
        int q = uri.indexOf('?');
        String path = q < 0 ? uri : uri.substring(0, q);
        String query = q < 0 ? null : uri.substring(q + 1);
        Map<String, String> lower = new LinkedHashMap<>();
        headers.forEach((k, v) -> lower.put(k.toLowerCase(), v));
        ByteArrayInputStream in = new ByteArrayInputStream(body);
        ServletInputStream stream = new ServletInputStream() {
            @Override
            public int read() {
                return in.read();
            }

            @Override
            public int read(byte[] b, int off, int len) {
                return in.read(b, off, len);
            }

            @Override
            public boolean isFinished() {
                return in.available() == 0;
            }

            @Override
            public boolean isReady() {
                return true;
            }

            @Override
            public void setReadListener(ReadListener listener) {
                throw new UnsupportedOperationException();
            }
        };
        return (HttpServletRequest) Proxy.newProxyInstance(FakeHttp.class.getClassLoader(),
                new Class<?>[] {HttpServletRequest.class}, (proxy, m, args) -> switch (m.getName()) {
                    case "getMethod" -> method;
                    case "getRequestURI" -> path;
                    case "getContextPath" -> "";
                    case "getRemoteAddr" -> "127.0.0.1";
                    case "getQueryString" -> query;
                    case "getHeader" -> lower.get(((String) args[0]).toLowerCase());
                    case "getHeaders" -> {
                        String v = lower.get(((String) args[0]).toLowerCase());
                        yield Collections.enumeration(v == null ? List.of() : List.of(v));
                    }
                    case "getHeaderNames" -> Collections.enumeration(new ArrayList<>(headers.keySet()));
                    case "getContentLengthLong" -> (long) body.length;
                    case "getContentLength" -> body.length;
                    case "getInputStream" -> stream;
                    case "toString" -> method + " " + uri;
                    default -> throw new UnsupportedOperationException(m.getName());
                });
    }

    public static HttpServletRequest get(String uri, Map<String, String> headers) {
        return request("GET", uri, headers, new byte[0]);
    }

    /** A response that records what the servlet wrote. */
    public static final class Response {

        public int status = 200;
        public final Map<String, List<String>> headers = new LinkedHashMap<>();
        public final ByteArrayOutputStream body = new ByteArrayOutputStream();
        public final HttpServletResponse servlet;

        public Response() {
            ServletOutputStream out = new ServletOutputStream() {
                @Override
                public void write(int b) {
                    body.write(b);
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setWriteListener(WriteListener listener) {
                    throw new UnsupportedOperationException();
                }
            };
            servlet = (HttpServletResponse) Proxy.newProxyInstance(FakeHttp.class.getClassLoader(),
                    new Class<?>[] {HttpServletResponse.class}, (proxy, m, args) -> {
                        switch (m.getName()) {
                            case "setStatus" -> status = (int) args[0];
                            case "setHeader" -> headers.put(((String) args[0]).toLowerCase(),
                                    new ArrayList<>(List.of((String) args[1])));
                            case "addHeader" -> headers.computeIfAbsent(((String) args[0]).toLowerCase(),
                                    k -> new ArrayList<>()).add((String) args[1]);
                            case "setContentType" -> headers.put("content-type", new ArrayList<>(List.of((String) args[0])));
                            case "setContentLength" -> headers.put("content-length",
                                    new ArrayList<>(List.of(String.valueOf(args[0]))));
                            case "getOutputStream" -> {
                                return out;
                            }
                            case "isCommitted" -> {
                                return body.size() > 0;
                            }
                            case "containsHeader" -> {
                                return headers.containsKey(((String) args[0]).toLowerCase());
                            }
                            default -> throw new UnsupportedOperationException(m.getName());
                        }
                        return null;
                    });
        }

        public String header(String name) {
            List<String> values = headers.get(name.toLowerCase());
            return values == null ? null : values.get(0);
        }

        public String text() {
            return body.toString(StandardCharsets.UTF_8);
        }
    }
}
