package dev.qaldy.gate.cap;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/** A request and a response for one servlet call, just enough for the gate's pages. */
final class FakeExchange {

    final Map<String, String> requestHeaders = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    final Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    final ByteArrayOutputStream body = new ByteArrayOutputStream();
    int status = 200;
    final HttpServletRequest request;
    final HttpServletResponse response;

    FakeExchange(String method, String... requestHeaderPairs) {
        for (int i = 0; i < requestHeaderPairs.length; i += 2) {
            requestHeaders.put(requestHeaderPairs[i], requestHeaderPairs[i + 1]);
        }
        request = (HttpServletRequest) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {HttpServletRequest.class},
                (proxy, m, args) -> switch (m.getName()) {
                    case "getHeader" -> requestHeaders.get((String) args[0]);
                    case "getMethod" -> method;
                    default -> null;
                });
        ServletOutputStream out = new ServletOutputStream() {
            @Override
            public boolean isReady() {
                return true;
            }

            @Override
            public void setWriteListener(WriteListener listener) {
            }

            @Override
            public void write(int b) {
                body.write(b);
            }
        };
        response = (HttpServletResponse) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {HttpServletResponse.class},
                (proxy, m, args) -> switch (m.getName()) {
                    case "setStatus" -> {
                        status = (Integer) args[0];
                        yield null;
                    }
                    case "setHeader" -> {
                        headers.put((String) args[0], (String) args[1]);
                        yield null;
                    }
                    case "containsHeader" -> headers.containsKey((String) args[0]);
                    case "setContentType" -> {
                        headers.put("Content-Type", (String) args[0]);
                        yield null;
                    }
                    case "isCommitted" -> false;
                    case "getOutputStream" -> out;
                    default -> null;
                });
    }

    String text() {
        return body.toString(StandardCharsets.UTF_8);
    }
}
