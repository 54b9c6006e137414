package dev.qaldy.runtime.sandbox.control;

import dev.qaldy.runtime.bundles.entity.Bundle;
import dev.qaldy.runtime.sandbox.control.SandboxContextFactory.BudgetExceeded;
import dev.qaldy.runtime.sandbox.entity.HandlerOutcome;
import dev.qaldy.runtime.sandbox.entity.HandlerOutcome.Failed;
import dev.qaldy.runtime.sandbox.entity.HandlerOutcome.NoHandler;
import dev.qaldy.runtime.sandbox.entity.HandlerOutcome.TimedOut;
import dev.qaldy.runtime.sandbox.entity.HandlerRequest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.mozilla.javascript.Context;
import org.mozilla.javascript.Function;
import org.mozilla.javascript.RhinoException;
import org.mozilla.javascript.Script;
import org.mozilla.javascript.Scriptable;
import org.mozilla.javascript.ScriptableObject;

/**
 * Runs one request through an app's {@code server.js}. Every call gets a fresh scope with only
 * the safe standard objects (no {@code java}, {@code Packages}, {@code JavaImporter}, and a class
 * shutter that refuses every Java class), runs the bundle's compiled script to register its
 * handlers on {@code app}, and calls the one matching method and path. The call's CPU time and
 * allocations are budgeted, its answer bounded; whatever it does, the host stays up.
 */
@ApplicationScoped
public class Sandbox {

    /** Largest answer body, in bytes. */
    public static final int MAX_OUTPUT_BYTES = 1024 * 1024;

    /** Registers handlers by method and exact path; frozen, so a script cannot swap the lookup. */
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
              return Object.freeze({
                get: on('GET'), post: on('POST'), put: on('PUT'), patch: on('PATCH'), 'delete': on('DELETE'),
                handler: function (method, path) {
                  var key = method + ' ' + path;
                  return Object.prototype.hasOwnProperty.call(routes, key) ? routes[key] : null;
                }
              });
            })()
            """;

    private SandboxContextFactory contexts;
    private HandlerScripts scripts;
    private Script prelude;
    private AppStore store;
    private Logger log;

    protected Sandbox() {
    }

    /**
     * @param cpuMillis      CPU time one call may use (loading the script and running the handler), in ms
     * @param allocatedBytes bytes one call may allocate, in bytes
     */
    @Inject
    public Sandbox(@ConfigProperty(name = "qaldy.runtime.handler-cpu-ms", defaultValue = "1000") long cpuMillis,
            @ConfigProperty(name = "qaldy.runtime.handler-allocation-bytes", defaultValue = "134217728") long allocatedBytes,
            AppStore store, Logger log) {
        this.contexts = new SandboxContextFactory(cpuMillis, allocatedBytes);
        this.scripts = new HandlerScripts(contexts);
        this.store = store;
        this.log = log;
        Context cx = contexts.enterContext();
        try {
            this.prelude = cx.compileString(PRELUDE, "qaldy-prelude.js", 1, null);
        } finally {
            Context.exit();
        }
    }

    /** Runs the handler for the request's method and path, if the app has one. */
    public HandlerOutcome handle(Bundle bundle, HandlerRequest request) {
        HandlerOutcome outcome = run(bundle, request);
        String call = bundle.key() + " " + request.method() + " " + request.path();
        if (outcome instanceof Failed failed) {
            log.log(Level.WARNING, "Handler {0} failed: {1}", new Object[] {call, JsBridge.printable(failed.reason())});
        } else if (outcome instanceof TimedOut timedOut) {
            log.log(Level.WARNING, "Handler {0} stopped after {1} ms of CPU time",
                    new Object[] {call, Long.toString(timedOut.cpuMillis())});
        }
        return outcome;
    }

    private HandlerOutcome run(Bundle bundle, HandlerRequest request) {
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
            JsBridge.installConsole(cx, scope, log, bundle.key().toString());
            compiled.script().exec(cx, scope);
            Object handler = ScriptableObject.callMethod(cx, app, "handler",
                    new Object[] {request.method(), request.path()});
            if (!(handler instanceof Function function)) {
                return new NoHandler();
            }
            Object result = function.call(cx, scope, scope, new Object[] {JsBridge.request(cx, scope, request)});
            return JsBridge.answer(cx, scope, result, MAX_OUTPUT_BYTES);
        } catch (BudgetExceeded e) {
            if (e.kind == BudgetExceeded.Kind.CPU) {
                return new TimedOut(SandboxContextFactory.cpuMillisUsed(cx));
            }
            return new Failed("the call allocated more memory than its budget");
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
}
