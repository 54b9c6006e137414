package dev.qaldy.runtime.sandbox.control;

import dev.qaldy.runtime.sandbox.entity.HandlerOutcome;
import dev.qaldy.runtime.sandbox.entity.HandlerOutcome.Answered;
import dev.qaldy.runtime.sandbox.entity.HandlerOutcome.Failed;
import dev.qaldy.runtime.sandbox.entity.HandlerOutcome.Header;
import dev.qaldy.runtime.sandbox.entity.HandlerRequest;
import dev.qaldy.runtime.sandbox.entity.JobRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import org.mozilla.javascript.BaseFunction;
import org.mozilla.javascript.Context;
import org.mozilla.javascript.NativeArray;
import org.mozilla.javascript.NativeJSON;
import org.mozilla.javascript.NativePromise;
import org.mozilla.javascript.ScriptRuntime;
import org.mozilla.javascript.Scriptable;
import org.mozilla.javascript.ScriptableObject;
import org.mozilla.javascript.Undefined;
import org.mozilla.javascript.json.JsonParser;

/**
 * Moves values across the sandbox's edge without handing JavaScript any Java object: the
 * {@code req} object, the {@code store} and {@code console} globals (functions written in Java
 * that take and return only JavaScript values), and the handler's return value, read back into a
 * bounded HTTP answer.
 */
final class JsBridge {

    static final int MAX_HEADERS = 50;
    static final int MAX_HEADER_VALUE = 8192;
    static final int MAX_CONSOLE_LINES = 20;
    static final int MAX_CONSOLE_CHARS = 1000;
    private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}");
    /** Response headers a handler may not set: the server owns them (hop-by-hop, framing, the cell's own). */
    private static final Set<String> DROPPED = Set.of("connection", "keep-alive", "transfer-encoding", "te", "trailer",
            "upgrade", "proxy-authenticate", "proxy-connection", "content-length");

    private JsBridge() {
    }

    /** The {@code req} object of the contract. */
    static Scriptable request(Context cx, Scriptable scope, HandlerRequest request) {
        Scriptable req = cx.newObject(scope);
        ScriptableObject.putProperty(req, "method", request.method());
        ScriptableObject.putProperty(req, "path", request.path());
        ScriptableObject.putProperty(req, "query", object(cx, scope, request.query()));
        ScriptableObject.putProperty(req, "headers", object(cx, scope, request.headers()));
        ScriptableObject.putProperty(req, "body", request.body());
        Object json = null;
        if (request.isJson() && !request.body().isBlank()) {
            try {
                json = new JsonParser(cx, scope).parseValue(request.body());
            } catch (JsonParser.ParseException e) {
                json = null;
            }
        }
        ScriptableObject.putProperty(req, "json", json);
        ScriptableObject.putProperty(req, "person", request.person());
        return req;
    }

    /** The {@code ctx} object of a job handler: {@code {runId, tick, actor, job, app, payload, json}}. */
    static Scriptable jobContext(Context cx, Scriptable scope, JobRequest job, String app) {
        Scriptable ctx = cx.newObject(scope);
        ScriptableObject.putProperty(ctx, "runId", (double) job.runId());
        ScriptableObject.putProperty(ctx, "tick", job.tick());
        ScriptableObject.putProperty(ctx, "actor", job.actor());
        ScriptableObject.putProperty(ctx, "job", job.job());
        ScriptableObject.putProperty(ctx, "app", app);
        ScriptableObject.putProperty(ctx, "payload", job.payload());
        Object json = null;
        if (job.payload() != null && !job.payload().isBlank()) {
            try {
                json = new JsonParser(cx, scope).parseValue(job.payload());
            } catch (JsonParser.ParseException e) {
                json = null;
            }
        }
        ScriptableObject.putProperty(ctx, "json", json);
        return ctx;
    }

    private static Scriptable object(Context cx, Scriptable scope, Map<String, String> values) {
        Scriptable object = cx.newObject(scope);
        values.forEach((k, v) -> ScriptableObject.putProperty(object, k, v));
        return object;
    }

    /**
     * Reads what a handler returned: {@code {status, headers, json}} or {@code {status, headers, body}};
     * a bare string is a 200 text answer and nothing at all is a 204.
     *
     * @throws OutputTooLarge when the body is over {@code maxBytes}
     */
    static HandlerOutcome answer(Context cx, Scriptable scope, Object result, int maxBytes) {
        if (result == null || result == Undefined.instance) {
            return new Answered(204, List.of(), new byte[0]);
        }
        if (result instanceof CharSequence text) {
            return text(200, new ArrayList<>(), text.toString(), maxBytes);
        }
        if (result instanceof NativePromise) {
            return new Failed("the handler returned a Promise; handlers answer synchronously");
        }
        if (!(result instanceof Scriptable answer) || result instanceof BaseFunction) {
            return new Failed("the handler returned " + ScriptRuntime.typeof(result) + ", not {status, json|body}");
        }
        int status = 200;
        Object s = ScriptableObject.getProperty(answer, "status");
        if (s != Scriptable.NOT_FOUND && s != Undefined.instance) {
            double number = ScriptRuntime.toNumber(s);
            if (number != Math.rint(number) || number < 200 || number > 599) {
                return new Failed("status must be a whole number from 200 to 599, not " + ScriptRuntime.toString(s));
            }
            status = (int) number;
        }
        List<Header> headers = new ArrayList<>();
        String problem = headers(answer, headers);
        if (problem != null) {
            return new Failed(problem);
        }
        if (ScriptableObject.hasProperty(answer, "json")) {
            Object value = ScriptableObject.getProperty(answer, "json");
            String json = stringify(cx, scope, value, maxBytes);
            if (!has(headers, "content-type")) {
                headers.add(new Header("Content-Type", "application/json"));
            }
            return bytes(status, headers, json, maxBytes);
        }
        if (ScriptableObject.hasProperty(answer, "body")) {
            Object body = ScriptableObject.getProperty(answer, "body");
            String text = body == null || body == Undefined.instance ? "" : ScriptRuntime.toString(body);
            return text(status, headers, text, maxBytes);
        }
        return new Answered(status, headers, new byte[0]);
    }

    private static HandlerOutcome text(int status, List<Header> headers, String text, int maxBytes) {
        if (!has(headers, "content-type")) {
            headers.add(new Header("Content-Type", "text/plain; charset=utf-8"));
        }
        return bytes(status, headers, text, maxBytes);
    }

    private static HandlerOutcome bytes(int status, List<Header> headers, String text, int maxBytes) {
        if (text.length() > maxBytes) {
            throw new OutputTooLarge(maxBytes);
        }
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        if (body.length > maxBytes) {
            throw new OutputTooLarge(maxBytes);
        }
        if (status == 204 || status == 304) {
            body = new byte[0];
        }
        return new Answered(status, headers, body);
    }

    /** Reads {@code headers} into {@code out}; returns a problem for the log, or null. */
    private static String headers(Scriptable answer, List<Header> out) {
        Object h = ScriptableObject.getProperty(answer, "headers");
        if (h == Scriptable.NOT_FOUND || h == null || h == Undefined.instance) {
            return null;
        }
        if (!(h instanceof Scriptable given)) {
            return "headers must be an object of name: value";
        }
        for (Object id : given.getIds()) {
            String name = String.valueOf(id);
            if (!TOKEN.matcher(name).matches()) {
                return "invalid header name " + printable(name);
            }
            Object value = ScriptableObject.getProperty(given, name);
            List<String> values = new ArrayList<>();
            if (value instanceof NativeArray array) {
                for (Object item : array.toArray()) {
                    values.add(ScriptRuntime.toString(item));
                }
            } else {
                values.add(ScriptRuntime.toString(value));
            }
            String lower = name.toLowerCase(Locale.ROOT);
            for (String v : values) {
                if (v.length() > MAX_HEADER_VALUE || v.chars().anyMatch(c -> c == '\r' || c == '\n' || c == 0)) {
                    return "invalid value for header " + name;
                }
                if (DROPPED.contains(lower) || lower.startsWith("x-qaldy-")
                        || (lower.equals("set-cookie") && v.strip().startsWith("qaldy_"))) {
                    continue;
                }
                if (out.size() >= MAX_HEADERS) {
                    return "more than " + MAX_HEADERS + " headers";
                }
                out.add(new Header(name, v));
            }
        }
        return null;
    }

    private static boolean has(List<Header> headers, String name) {
        return headers.stream().anyMatch(h -> h.name().equalsIgnoreCase(name));
    }

    /**
     * {@code JSON.stringify} that gives up once the text would pass about {@code maxChars}
     * characters, before building it: a replacer counts as it goes.
     *
     * @throws OutputTooLarge past the bound
     */
    static String stringify(Context cx, Scriptable scope, Object value, int maxChars) {
        SizeBudget budget = new SizeBudget(scope, maxChars);
        Object json = NativeJSON.stringify(cx, scope, value, budget, Undefined.instance);
        return json instanceof CharSequence text ? text.toString() : "null";
    }

    /** Installs {@code store.push(list, item)} and {@code store.list(list)} for one app. */
    static void installStore(Context cx, ScriptableObject scope, AppStore store, String app) {
        Scriptable object = cx.newObject(scope);
        ScriptableObject.putProperty(object, "push", new JavaFunction(scope, "push", 2, (c, s, args) -> {
            String list = args.length > 0 ? ScriptRuntime.toString(args[0]) : "";
            Object item = args.length > 1 ? args[1] : Undefined.instance;
            String json;
            try {
                json = stringify(c, s, item, AppStore.MAX_ITEM_CHARS);
            } catch (OutputTooLarge e) {
                throw new IllegalArgumentException("store.push: an item may be at most " + AppStore.MAX_ITEM_CHARS
                        + " characters of JSON");
            }
            return store.push(app, list, json);
        }));
        ScriptableObject.putProperty(object, "list", new JavaFunction(scope, "list", 1, (c, s, args) -> {
            String list = args.length > 0 ? ScriptRuntime.toString(args[0]) : "";
            List<String> items = store.list(app, list);
            Object[] parsed = new Object[items.size()];
            JsonParser parser = new JsonParser(c, s);
            for (int i = 0; i < parsed.length; i++) {
                try {
                    parsed[i] = parser.parseValue(items.get(i));
                } catch (JsonParser.ParseException e) {
                    throw new IllegalStateException("a stored item is not JSON", e);
                }
            }
            return c.newArray(s, parsed);
        }));
        scope.defineProperty("store", object, ScriptableObject.READONLY | ScriptableObject.PERMANENT);
    }

    /** Installs {@code console.log/info/warn/error}, written to the host's log, a few bounded lines per call. */
    static void installConsole(Context cx, ScriptableObject scope, Logger log, String label) {
        installConsole(cx, scope, log, label, null, MAX_CONSOLE_LINES);
    }

    /**
     * As {@link #installConsole(Context, ScriptableObject, Logger, String)}; with {@code capture}
     * the lines (at most {@code maxLines}) are also kept for the caller, e.g. as a job run's log.
     */
    static void installConsole(Context cx, ScriptableObject scope, Logger log, String label, List<String> capture,
            int maxLines) {
        Scriptable console = cx.newObject(scope);
        int[] lines = {0};
        for (String method : List.of("log", "info", "warn", "error")) {
            Level level = method.equals("warn") || method.equals("error") ? Level.WARNING : Level.INFO;
            ScriptableObject.putProperty(console, method, new JavaFunction(scope, method, 1, (c, s, args) -> {
                if (++lines[0] > maxLines) {
                    if (capture != null && lines[0] == maxLines + 1) {
                        capture.add("(more console lines not kept)");
                    }
                    return Undefined.instance;
                }
                StringBuilder line = new StringBuilder();
                for (Object arg : args) {
                    if (line.length() > 0) {
                        line.append(' ');
                    }
                    line.append(arg instanceof Scriptable && !(arg instanceof BaseFunction)
                            ? safeStringify(c, s, arg) : ScriptRuntime.toString(arg));
                    if (line.length() > MAX_CONSOLE_CHARS) {
                        break;
                    }
                }
                String text = printable(line.length() > MAX_CONSOLE_CHARS
                        ? line.substring(0, MAX_CONSOLE_CHARS) + "…" : line.toString());
                log.log(level, "[{0}] console.{1}: {2}", new Object[] {label, method, text});
                if (capture != null) {
                    capture.add(text);
                }
                return Undefined.instance;
            }));
        }
        scope.defineProperty("console", console, ScriptableObject.READONLY | ScriptableObject.PERMANENT);
    }

    private static String safeStringify(Context cx, Scriptable scope, Object value) {
        try {
            return stringify(cx, scope, value, MAX_CONSOLE_CHARS);
        } catch (OutputTooLarge | org.mozilla.javascript.EcmaError e) {
            return ScriptRuntime.toString(value);
        }
    }

    /** Replaces control characters, so a script cannot forge log lines. */
    static String printable(String text) {
        return text.replaceAll("\\p{Cntrl}", "?");
    }

    /** The body of a function written in Java; JavaScript values in, a JavaScript value out. */
    @FunctionalInterface
    interface Body {
        Object call(Context cx, Scriptable scope, Object[] args);
    }

    /**
     * A JavaScript function implemented in Java. Argument errors become a catchable TypeError
     * whose message is meant for the app's developer.
     */
    static final class JavaFunction extends BaseFunction {

        private static final long serialVersionUID = 1L;
        private final String name;
        private final int arity;
        private final transient Body body;

        JavaFunction(Scriptable scope, String name, int arity, Body body) {
            this.name = name;
            this.arity = arity;
            this.body = body;
            ScriptRuntime.setFunctionProtoAndParent(this, scope);
        }

        @Override
        public Object call(Context cx, Scriptable scope, Scriptable thisObj, Object[] args) {
            try {
                return body.call(cx, scope, args);
            } catch (IllegalArgumentException e) {
                throw ScriptRuntime.typeError(e.getMessage());
            }
        }

        @Override
        public Scriptable construct(Context cx, Scriptable scope, Object[] args) {
            throw ScriptRuntime.typeError(name + " is not a constructor");
        }

        @Override
        public String getFunctionName() {
            return name;
        }

        @Override
        public int getArity() {
            return arity;
        }

        @Override
        public int getLength() {
            return arity;
        }
    }

    /** A JSON.stringify replacer that only counts, and stops the serialisation past its bound. */
    private static final class SizeBudget extends BaseFunction {

        private static final long serialVersionUID = 1L;
        private final long max;
        private long used;

        SizeBudget(Scriptable scope, long max) {
            this.max = max;
            ScriptRuntime.setFunctionProtoAndParent(this, scope);
        }

        @Override
        public Object call(Context cx, Scriptable scope, Scriptable thisObj, Object[] args) {
            Object key = args.length > 0 ? args[0] : "";
            Object value = args.length > 1 ? args[1] : Undefined.instance;
            used += 4 + String.valueOf(key).length();
            used += value instanceof CharSequence text ? text.length() + 2 : 8;
            if (used > max) {
                throw new OutputTooLarge(max);
            }
            return value;
        }
    }

    /** A handler's answer (or a stored item) over its size bound. */
    static final class OutputTooLarge extends RuntimeException {

        private static final long serialVersionUID = 1L;

        OutputTooLarge(long max) {
            super("over " + max + " characters", null, false, false);
        }
    }
}
