package dev.qaldy.runtime.sandbox.control;

import dev.qaldy.runtime.data.control.DataReplica;
import dev.qaldy.runtime.data.entity.DataSession;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.mozilla.javascript.BaseFunction;
import org.mozilla.javascript.Context;
import org.mozilla.javascript.JavaScriptException;
import org.mozilla.javascript.NativeArray;
import org.mozilla.javascript.ScriptRuntime;
import org.mozilla.javascript.Scriptable;
import org.mozilla.javascript.ScriptableObject;
import org.mozilla.javascript.Undefined;
import org.mozilla.javascript.json.JsonParser;

/**
 * The {@code qaldy.data} global of {@code server.js}: the app's own collections in the control
 * plane's data API, for one handler or job call. Records are the data API's
 * ({@code {id, collection, data, createdBy, createdAt, updatedAt}}):
 * <pre>
 * qaldy.data.create(collection, object)        → record
 * qaldy.data.get(collection, id)               → record, or null when there is none
 * qaldy.data.list(collection, {limit, after, order}) → {records, nextAfter: id | null}
 *     limit 1..100 (20); order 'oldest' (default) or 'newest'; after: the last page's nextAfter
 * qaldy.data.put(collection, id, object)       → record (the whole object replaced)
 * qaldy.data.delete(collection, id)            → true, or false when there was none
 * </pre>
 * Failures throw an {@code Error} the handler can catch, with {@code name} {@value #ERROR_NAME},
 * {@code code} and {@code status}: {@code unavailable} (503: the control plane cannot be reached;
 * uncaught, the visitor gets a 503 problem), {@code invalid} (400), {@code not-found} (404),
 * {@code conflict} (409: the app holds the most records it may), {@code too-large} (413: a record is
 * at most 16 KiB of JSON), {@code limit} (more than the calls one handler call may make),
 * {@code unexpected}. Once a call found the API unavailable, the call's later data calls do not
 * ask it again, so a handler waits at most one timeout for an outage.
 *
 * <p>Issue 18: while the control plane cannot be asked, {@code get} and {@code list} are answered
 * from this host's {@link DataReplica} when it can (the answer then has {@code asOf}, when the replica
 * last heard from the data feed, ISO-8601), never older than the call's {@link DataSession} floor;
 * writes still fail with {@code unavailable}.
 */
final class DataBridge {

    static final String ERROR_NAME = "QaldyDataError";
    static final String UNAVAILABLE = "unavailable";
    /** Largest record, in characters and in UTF-8 bytes of JSON (the data API's bound, 16 KiB). */
    static final int MAX_RECORD = 16 * 1024;

    private final AppDataClient client;
    private final DataReplica replica;
    private final DataSession session;
    private final String app;
    private final String grant;
    private final int maxCalls;
    private int calls;
    private String unavailable;

    private DataBridge(AppDataClient client, DataReplica replica, DataSession session, String app, String grant, int maxCalls) {
        this.client = client;
        this.replica = replica;
        this.session = session;
        this.app = app;
        this.grant = grant;
        this.maxCalls = maxCalls;
    }

    /**
     * Installs a frozen {@code qaldy} global with {@code qaldy.data} for one call of {@code app}'s code.
     *
     * @param client   the data API client, or null on a host without one (every call is then unavailable)
     * @param replica  this host's replica of the apps' data, or null for none
     * @param session  the call's bookmarks (what it read, how new)
     * @param grant    the data grant for {@code app} that came with the request or job (null: none; the API refuses)
     * @param maxCalls the most data calls this one call may make
     */
    static void install(Context cx, ScriptableObject scope, AppDataClient client, DataReplica replica, DataSession session, String app,
            String grant, int maxCalls) {
        DataBridge bridge = new DataBridge(client, replica, session, app, grant, maxCalls);
        int fixed = ScriptableObject.READONLY | ScriptableObject.PERMANENT;
        ScriptableObject data = (ScriptableObject) cx.newObject(scope);
        data.defineProperty("create", new JsBridge.JavaFunction(scope, "create", 2, bridge::create), fixed);
        data.defineProperty("get", new JsBridge.JavaFunction(scope, "get", 2, bridge::get), fixed);
        data.defineProperty("list", new JsBridge.JavaFunction(scope, "list", 2, bridge::list), fixed);
        data.defineProperty("put", new JsBridge.JavaFunction(scope, "put", 3, bridge::put), fixed);
        data.defineProperty("delete", new JsBridge.JavaFunction(scope, "delete", 2, bridge::delete), fixed);
        data.preventExtensions();
        ScriptableObject qaldy = (ScriptableObject) cx.newObject(scope);
        qaldy.defineProperty("data", data, fixed);
        qaldy.preventExtensions();
        scope.defineProperty("qaldy", qaldy, fixed);
    }

    /** Whether a value a script threw is the data API's "unavailable" error. */
    static boolean isUnavailable(Object thrown) {
        return thrown instanceof Scriptable error
                && ERROR_NAME.equals(ScriptableObject.getProperty(error, "name"))
                && UNAVAILABLE.equals(ScriptableObject.getProperty(error, "code"));
    }

    private Object create(Context cx, Scriptable scope, Object[] args) {
        String collection = collection(cx, scope, args, "create");
        String json = record(cx, scope, arg(args, 1), "create");
        return parsed(cx, scope, send(cx, scope, "POST", collection, null, null, json), 201);
    }

    private Object get(Context cx, Scriptable scope, Object[] args) {
        String collection = collection(cx, scope, args, "get");
        String id = id(cx, scope, arg(args, 1), "get");
        AppDataClient.Reply reply = send(cx, scope, "GET", collection, id, null, null);
        if (reply.status() == 200) {
            return withAsOf(parse(cx, scope, reply), reply);
        }
        if (reply.status() == 404) {
            return null;
        }
        throw problem(cx, scope, reply);
    }

    private Object list(Context cx, Scriptable scope, Object[] args) {
        String collection = collection(cx, scope, args, "list");
        Object options = arg(args, 1);
        StringBuilder query = new StringBuilder();
        if (options instanceof Scriptable given && !(options instanceof BaseFunction)) {
            Object limit = ScriptableObject.getProperty(given, "limit");
            if (limit != Scriptable.NOT_FOUND && limit != Undefined.instance && limit != null) {
                double n = ScriptRuntime.toNumber(limit);
                if (n != Math.rint(n) || n < 1 || n > 100) {
                    throw error(cx, scope, "invalid", 400, "qaldy.data.list: limit is a whole number from 1 to 100");
                }
                query.append("limit=").append((long) n);
            }
            Object order = ScriptableObject.getProperty(given, "order");
            if (order != Scriptable.NOT_FOUND && order != Undefined.instance && order != null) {
                String text = ScriptRuntime.toString(order);
                if (!text.equals("oldest") && !text.equals("newest")) {
                    throw error(cx, scope, "invalid", 400, "qaldy.data.list: order is 'oldest' (the default) or 'newest'");
                }
                query.append(query.length() > 0 ? "&" : "").append("order=").append(text);
            }
            Object after = ScriptableObject.getProperty(given, "after");
            if (after != Scriptable.NOT_FOUND && after != Undefined.instance && after != null) {
                query.append(query.length() > 0 ? "&" : "").append("after=").append(id(cx, scope, after, "list"));
            }
        } else if (options != Undefined.instance && options != null) {
            throw error(cx, scope, "invalid", 400, "qaldy.data.list(collection, {limit, after, order}): the options are an object");
        }
        AppDataClient.Reply reply = send(cx, scope, "GET", collection, null, query.toString(), null);
        return withAsOf(parsed(cx, scope, reply, 200), reply);
    }

    /** A record or page answered from the replica gets {@code asOf} (ISO-8601). */
    private static Object withAsOf(Object parsed, AppDataClient.Reply reply) {
        if (reply.asOf() != null && parsed instanceof ScriptableObject object) {
            ScriptableObject.putProperty(object, "asOf", reply.asOf().toString());
        }
        return parsed;
    }

    private Object put(Context cx, Scriptable scope, Object[] args) {
        String collection = collection(cx, scope, args, "put");
        String id = id(cx, scope, arg(args, 1), "put");
        String json = record(cx, scope, arg(args, 2), "put");
        return parsed(cx, scope, send(cx, scope, "PUT", collection, id, null, json), 200);
    }

    private Object delete(Context cx, Scriptable scope, Object[] args) {
        String collection = collection(cx, scope, args, "delete");
        String id = id(cx, scope, arg(args, 1), "delete");
        AppDataClient.Reply reply = send(cx, scope, "DELETE", collection, id, null, null);
        if (reply.status() == 204 || reply.status() == 200) {
            return Boolean.TRUE;
        }
        if (reply.status() == 404) {
            return Boolean.FALSE;
        }
        throw problem(cx, scope, reply);
    }

    private AppDataClient.Reply send(Context cx, Scriptable scope, String method, String collection, String id,
            String query, String json) {
        if (++calls > maxCalls) {
            throw error(cx, scope, "limit", 429, "qaldy.data: at most " + maxCalls + " data calls per request or job run");
        }
        if (unavailable == null && client == null) {
            unavailable = "the app's data cannot be reached: this host has no data API";
        }
        if (unavailable == null) {
            try {
                AppDataClient.Reply reply = client.call(app, grant, method, collection, id, query, json);
                session.saw(reply.bookmark());
                if (replica != null && method.equals("GET")) {
                    replica.wanted(app);
                }
                return reply;
            } catch (AppDataClient.Unavailable e) {
                unavailable = "The app's data cannot be reached right now. Try again in a minute.";
            }
        }
        if (replica != null && method.equals("GET")) {
            Optional<DataReplica.Answer> answer = replica.read(app, collection, id, query, session.floor());
            if (answer.isPresent()) {
                session.sawReplica(answer.get().bookmark(), answer.get().asOf());
                return new AppDataClient.Reply(answer.get().status(), answer.get().json(), answer.get().bookmark(), answer.get().asOf());
            }
        }
        throw error(cx, scope, UNAVAILABLE, 503, unavailable);
    }

    private static Object arg(Object[] args, int i) {
        return args.length > i ? args[i] : Undefined.instance;
    }

    private static String collection(Context cx, Scriptable scope, Object[] args, String call) {
        Object value = arg(args, 0);
        if (!(value instanceof CharSequence text) || !AppDataClient.COLLECTION.matcher(text).matches()) {
            throw error(cx, scope, "invalid", 400, "qaldy.data." + call + ": a collection name is 1 to 40 characters of"
                    + " a-z, 0-9 and '-'");
        }
        return text.toString();
    }

    private static String id(Context cx, Scriptable scope, Object value, String call) {
        String id = value instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue()) && n.doubleValue() >= 0
                ? Long.toString(n.longValue())
                : value instanceof CharSequence text ? text.toString() : "";
        if (!AppDataClient.ID.matcher(id).matches()) {
            throw error(cx, scope, "invalid", 400, "qaldy.data." + call + ": a record id is the whole number the data API gave");
        }
        return id;
    }

    private static String record(Context cx, Scriptable scope, Object value, String call) {
        if (!(value instanceof Scriptable) || value instanceof NativeArray || value instanceof BaseFunction) {
            throw error(cx, scope, "invalid", 400, "qaldy.data." + call + ": a record is an object, e.g. {text: 'hello'}");
        }
        String json;
        try {
            json = JsBridge.stringify(cx, scope, value, MAX_RECORD);
        } catch (JsBridge.OutputTooLarge e) {
            throw error(cx, scope, "too-large", 413, "qaldy.data." + call + ": a record is at most " + MAX_RECORD
                    + " bytes of JSON");
        }
        if (json.getBytes(StandardCharsets.UTF_8).length > MAX_RECORD) {
            throw error(cx, scope, "too-large", 413, "qaldy.data." + call + ": a record is at most " + MAX_RECORD
                    + " bytes of JSON");
        }
        return json;
    }

    /** The answer's JSON when its status is {@code ok}; otherwise the problem as an error. */
    private static Object parsed(Context cx, Scriptable scope, AppDataClient.Reply reply, int ok) {
        if (reply.status() != ok) {
            throw problem(cx, scope, reply);
        }
        return parse(cx, scope, reply);
    }

    private static Object parse(Context cx, Scriptable scope, AppDataClient.Reply reply) {
        try {
            return new JsonParser(cx, scope).parseValue(reply.json());
        } catch (JsonParser.ParseException e) {
            throw error(cx, scope, "unexpected", 502, "qaldy.data: the data API answered something that is not JSON");
        }
    }

    private static final Map<Integer, String> CODES = Map.of(400, "invalid", 404, "not-found", 409, "conflict",
            413, "too-large", 415, "invalid");

    /** The data API's problem answer as an error; its {@code detail} is written for the app's developer. */
    private static JavaScriptException problem(Context cx, Scriptable scope, AppDataClient.Reply reply) {
        String detail = "the data API answered HTTP " + reply.status();
        try {
            Object json = new JsonParser(cx, scope).parseValue(reply.json());
            if (json instanceof Scriptable object && ScriptableObject.getProperty(object, "detail") instanceof CharSequence d) {
                detail = d.toString();
            }
        } catch (JsonParser.ParseException e) {
            // the status says enough
        }
        return error(cx, scope, CODES.getOrDefault(reply.status(), "unexpected"), reply.status(), "qaldy.data: " + detail);
    }

    /** A catchable {@code Error} with {@code name}, {@code code} and {@code status}. */
    static JavaScriptException error(Context cx, Scriptable scope, String code, int status, String message) {
        Scriptable error = cx.newObject(scope, "Error", new Object[] {JsBridge.printable(message)});
        ScriptableObject.putProperty(error, "name", ERROR_NAME);
        ScriptableObject.putProperty(error, "code", code);
        ScriptableObject.putProperty(error, "status", status);
        return new JavaScriptException(error, "qaldy.data", 0);
    }
}
