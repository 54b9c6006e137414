package dev.qaldy.runtime.sandbox.control;

import dev.qaldy.runtime.bundles.entity.Bundle;
import dev.qaldy.runtime.data.control.DataReplica;
import dev.qaldy.runtime.data.entity.DataSession;
import dev.qaldy.runtime.sandbox.control.SandboxContextFactory.BudgetExceeded;
import dev.qaldy.runtime.sandbox.entity.HandlerOutcome;
import dev.qaldy.runtime.sandbox.entity.HandlerOutcome.Answered;
import dev.qaldy.runtime.sandbox.entity.HandlerOutcome.DataUnavailable;
import dev.qaldy.runtime.sandbox.entity.HandlerOutcome.Failed;
import dev.qaldy.runtime.sandbox.entity.HandlerOutcome.Header;
import dev.qaldy.runtime.sandbox.entity.HandlerOutcome.NoHandler;
import dev.qaldy.runtime.sandbox.entity.HandlerOutcome.TimedOut;
import dev.qaldy.runtime.sandbox.entity.HandlerRequest;
import dev.qaldy.runtime.sandbox.entity.JobOutcome;
import dev.qaldy.runtime.sandbox.entity.JobRequest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.mozilla.javascript.Context;
import org.mozilla.javascript.Function;
import org.mozilla.javascript.JavaScriptException;
import org.mozilla.javascript.RhinoException;
import org.mozilla.javascript.Script;
import org.mozilla.javascript.Scriptable;
import org.mozilla.javascript.ScriptableObject;

/**
 * Runs one request through an app's {@code server.js}. Every call gets a fresh scope with only
 * the safe standard objects (no {@code java}, {@code Packages}, {@code JavaImporter}, and a class
 * shutter that refuses every Java class) plus {@code app}, {@code store}, {@code console} and
 * {@code qaldy.data} (the app's own data, {@link DataBridge}), runs the bundle's compiled script to
 * register its handlers on {@code app}, and calls the one matching method and path. The call's CPU time and
 * allocations are budgeted, its answer bounded; whatever it does, the host stays up.
 */
@ApplicationScoped
public class Sandbox {

    /** Largest answer body, in bytes. */
    public static final int MAX_OUTPUT_BYTES = 1024 * 1024;

    /** Registers handlers by method and exact path, and job handlers by name; frozen, so a script cannot swap the lookup. */
    static final String PRELUDE = """
            (function () {
              var routes = {};
              function on(method) {
                var name = 'app.' + method.toLowerCase();
                return function (path, handler) {
                  if (typeof path !== 'string' || path.indexOf('/api/') !== 0) {
                    throw new TypeError(name + '(path, handler): the path must start with /api/');
                  }
                  if (typeof handler !== 'function') {
                    throw new TypeError(name + '(path, handler): the handler must be a function');
                  }
                  routes[method + ' ' + path] = handler;
                };
              }
              var jobs = {};
              return Object.freeze({
                get: on('GET'), post: on('POST'), put: on('PUT'), patch: on('PATCH'), 'delete': on('DELETE'),
                job: function (name, handler) {
                  if (typeof name !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(name)) {
                    throw new TypeError('app.job(name, handler): the name is 1 to 64 letters, digits, - or _');
                  }
                  if (typeof handler !== 'function') {
                    throw new TypeError('app.job(name, handler): the handler must be a function');
                  }
                  jobs[name] = handler;
                },
                handler: function (method, path) {
                  var key = method + ' ' + path;
                  return Object.prototype.hasOwnProperty.call(routes, key) ? routes[key] : null;
                },
                jobHandler: function (name) {
                  return Object.prototype.hasOwnProperty.call(jobs, name) ? jobs[name] : null;
                },
                jobNames: function () {
                  return Object.keys(jobs).sort().join(', ');
                }
              });
            })()
            """;

    private SandboxContextFactory contexts;
    private HandlerScripts scripts;
    private Script prelude;
    private AppStore store;
    private AppDataClient data;
    private DataReplica replica;
    private int maxDataCalls;
    private Logger log;

    protected Sandbox() {
    }

    /** As the injected constructor, on a host without the data API: every {@code qaldy.data} call is "unavailable". */
    public Sandbox(long cpuMillis, long allocatedBytes, AppStore store, Logger log) {
        this(cpuMillis, allocatedBytes, 0, store, null, null, log);
    }

    /**
     * @param cpuMillis      CPU time one call may use (loading the script and running the handler), in ms
     * @param allocatedBytes bytes one call may allocate, in bytes
     * @param maxDataCalls   {@code qaldy.data} calls one handler or job call may make
     * @param data           the app-scoped data API client, or null for none
     * @param replica        this host's replica of the apps' data (issue 18), or null for none
     */
    @Inject
    public Sandbox(@ConfigProperty(name = "qaldy.runtime.handler-cpu-ms", defaultValue = "1000") long cpuMillis,
            @ConfigProperty(name = "qaldy.runtime.handler-allocation-bytes", defaultValue = "134217728") long allocatedBytes,
            @ConfigProperty(name = "qaldy.runtime.data-calls-per-call", defaultValue = "20") int maxDataCalls,
            AppStore store, AppDataClient data, DataReplica replica, Logger log) {
        this.contexts = new SandboxContextFactory(cpuMillis, allocatedBytes);
        this.scripts = new HandlerScripts(contexts);
        this.store = store;
        this.data = data;
        this.replica = replica;
        this.maxDataCalls = maxDataCalls;
        this.log = log;
        Context cx = contexts.enterContext();
        try {
            this.prelude = cx.compileString(PRELUDE, "qaldy-prelude.js", 1, null);
        } finally {
            Context.exit();
        }
    }

    /**
     * Runs the handler for the request's method and path, if the app has one.
     *
     * @param grant the data grant the gate sent with the request, passed on with the handler's data calls (null: none)
     */
    public HandlerOutcome handle(Bundle bundle, HandlerRequest request, String grant) {
        HandlerOutcome outcome = run(bundle, request, grant);
        String call = bundle.key() + " " + request.method() + " " + request.path();
        if (outcome instanceof Failed failed) {
            log.log(Level.WARNING, "Handler {0} failed: {1}", new Object[] {call, JsBridge.printable(failed.reason())});
        } else if (outcome instanceof DataUnavailable unavailable) {
            log.log(Level.INFO, "Handler {0}: {1}", new Object[] {call, JsBridge.printable(unavailable.reason())});
        } else if (outcome instanceof TimedOut timedOut) {
            log.log(Level.WARNING, "Handler {0} stopped after {1} ms of CPU time",
                    new Object[] {call, Long.toString(timedOut.cpuMillis())});
        }
        return outcome;
    }

    /**
     * Runs the job handler {@code app.job(name, fn)} of the bundle's {@code server.js} with
     * {@code ctx = {runId, tick, actor, job, app, payload, json}} (payload: a webhook's body, else null).
     * What it writes with {@code console.log} becomes the run's log (bounded); its return value is
     * ignored. Same sandbox and budgets as a request handler.
     *
     * @param grant the data grant the control plane sent with the job, passed on with its data calls (null: none)
     */
    public JobOutcome runJob(Bundle bundle, JobRequest job, String grant) {
        List<String> lines = new ArrayList<>();
        JobOutcome outcome;
        try {
            outcome = job(bundle, job, grant, lines);
        } catch (RuntimeException e) {
            outcome = JobOutcome.failed(lines, "the sandbox failed: " + e);
        }
        if (!outcome.succeeded()) {
            log.log(Level.INFO, "Job {0} {1} (run {2}) failed: {3}",
                    new Object[] {bundle.key(), job.job(), Long.toString(job.runId()), JsBridge.printable(outcome.error())});
        }
        return outcome;
    }

    private JobOutcome job(Bundle bundle, JobRequest job, String grant, List<String> lines) {
        if (bundle.handlerPath().isEmpty()) {
            return JobOutcome.failed(lines, "the live version " + bundle.key().version() + " of " + bundle.key().app()
                    + " has no server.js, so no job handler named \"" + job.job() + "\"; promote a version with one, or change the schedule or hook");
        }
        HandlerScripts.Compiled compiled = scripts.of(bundle);
        if (compiled.error() != null) {
            return JobOutcome.failed(lines, "the handler script does not compile: " + compiled.error());
        }
        Context cx = contexts.enterContext();
        try {
            SandboxContextFactory.startBudget(cx);
            ScriptableObject scope = cx.initSafeStandardObjects();
            Scriptable app = (Scriptable) prelude.exec(cx, scope);
            scope.defineProperty("app", app, ScriptableObject.READONLY | ScriptableObject.PERMANENT);
            JsBridge.installStore(cx, scope, store, bundle.key().app());
            DataBridge.install(cx, scope, data, replica, new DataSession(-1), bundle.key().app(), grant, maxDataCalls);
            JsBridge.installConsole(cx, scope, log, bundle.key().toString(), lines, JobOutcome.MAX_LOG_LINES);
            compiled.script().exec(cx, scope);
            Object handler = ScriptableObject.callMethod(cx, app, "jobHandler", new Object[] {job.job()});
            if (!(handler instanceof Function function)) {
                return JobOutcome.failed(lines, missingJob(bundle, job.job(),
                        String.valueOf(ScriptableObject.callMethod(cx, app, "jobNames", new Object[0]))));
            }
            Object result = function.call(cx, scope, scope, new Object[] {JsBridge.jobContext(cx, scope, job, bundle.key().app())});
            if (result instanceof org.mozilla.javascript.NativePromise) {
                return JobOutcome.failed(lines, "the job handler returned a Promise; job handlers run synchronously");
            }
            return JobOutcome.succeeded(lines);
        } catch (BudgetExceeded e) {
            return JobOutcome.failed(lines, e.kind == BudgetExceeded.Kind.CPU
                    ? "the job used up its CPU time (" + SandboxContextFactory.cpuMillisUsed(cx) + " ms)"
                    : "the job allocated more memory than its budget");
        } catch (RhinoException e) {
            String where = e.sourceName() == null ? "" : " (" + e.sourceName() + ":" + e.lineNumber() + ")";
            return JobOutcome.failed(lines, "uncaught " + e.details() + where);
        } catch (StackOverflowError | OutOfMemoryError e) {
            return JobOutcome.failed(lines, "the job ran out of " + (e instanceof StackOverflowError ? "stack" : "memory"));
        } finally {
            Context.exit();
        }
    }

    /**
     * The run's reason when the live version lacks the job, e.g. after a version without it was
     * promoted: which version, which jobs it has, and what to do; no stack trace.
     *
     * @param registered the job names it registers, {@code ", "}-separated, or empty
     */
    static String missingJob(Bundle bundle, String job, String registered) {
        return "the live version " + bundle.key().version() + " of " + bundle.key().app() + " has no job handler named \""
                + job + "\": its " + bundle.handlerPath().orElse("server.js") + " registers "
                + (registered.isEmpty() ? "no jobs" : "these jobs: " + registered)
                + "; promote a version with app.job('" + job + "', function (ctx) { … }), or change the schedule or hook";
    }

    private HandlerOutcome run(Bundle bundle, HandlerRequest request, String grant) {
        if (bundle.handlerPath().isEmpty()) {
            return new NoHandler();
        }
        HandlerScripts.Compiled compiled = scripts.of(bundle);
        if (compiled.error() != null) {
            return new Failed("the handler script does not compile: " + compiled.error());
        }
        Context cx = contexts.enterContext();
        try {
            SandboxContextFactory.startBudget(cx);
            ScriptableObject scope = cx.initSafeStandardObjects();
            Scriptable app = (Scriptable) prelude.exec(cx, scope);
            scope.defineProperty("app", app, ScriptableObject.READONLY | ScriptableObject.PERMANENT);
            JsBridge.installStore(cx, scope, store, bundle.key().app());
            DataSession session = DataSession.of(request.headers());
            DataBridge.install(cx, scope, data, replica, session, bundle.key().app(), grant, maxDataCalls);
            JsBridge.installConsole(cx, scope, log, bundle.key().toString());
            compiled.script().exec(cx, scope);
            Object handler = ScriptableObject.callMethod(cx, app, "handler",
                    new Object[] {request.method(), request.path()});
            if (!(handler instanceof Function function)) {
                return new NoHandler();
            }
            Object result = function.call(cx, scope, scope, new Object[] {JsBridge.request(cx, scope, request)});
            return withDataHeaders(JsBridge.answer(cx, scope, result, MAX_OUTPUT_BYTES), session);
        } catch (BudgetExceeded e) {
            if (e.kind == BudgetExceeded.Kind.CPU) {
                return new TimedOut(SandboxContextFactory.cpuMillisUsed(cx));
            }
            return new Failed("the call allocated more memory than its budget");
        } catch (JavaScriptException e) {
            if (DataBridge.isUnavailable(e.getValue())) {
                return new DataUnavailable(e.details());
            }
            String where = e.sourceName() == null ? "" : " (" + e.sourceName() + ":" + e.lineNumber() + ")";
            return new Failed("uncaught " + e.details() + where);
        } catch (RhinoException e) {
            String where = e.sourceName() == null ? "" : " (" + e.sourceName() + ":" + e.lineNumber() + ")";
            return new Failed("uncaught " + e.details() + where);
        } catch (JsBridge.OutputTooLarge e) {
            return new Failed("the answer is over " + MAX_OUTPUT_BYTES + " bytes");
        } catch (StackOverflowError | OutOfMemoryError e) {
            return new Failed("the call ran out of " + (e instanceof StackOverflowError ? "stack" : "memory"));
        } catch (RuntimeException e) {
            return new Failed("the sandbox failed: " + e);
        } finally {
            Context.exit();
        }
    }

    /** The call's data bookmark and source (issue 18) on its answer, unless the handler set them itself. */
    private static HandlerOutcome withDataHeaders(HandlerOutcome outcome, DataSession session) {
        if (!(outcome instanceof Answered answered) || session.headers().isEmpty()) {
            return outcome;
        }
        List<Header> headers = new ArrayList<>(answered.headers());
        for (String[] header : session.headers()) {
            if (headers.stream().noneMatch(h -> h.name().equalsIgnoreCase(header[0]))) {
                headers.add(new Header(header[0], header[1]));
            }
        }
        return new Answered(answered.status(), headers, answered.body());
    }
}
