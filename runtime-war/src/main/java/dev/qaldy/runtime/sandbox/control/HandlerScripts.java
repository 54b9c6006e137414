package dev.qaldy.runtime.sandbox.control;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.qaldy.runtime.bundles.entity.Bundle;
import org.mozilla.javascript.Context;
import org.mozilla.javascript.ContextFactory;
import org.mozilla.javascript.RhinoException;
import org.mozilla.javascript.Script;

/**
 * Each bundle's handler script, compiled once. Keyed on the bundle object itself (weakly), so a
 * compiled script leaves memory together with its bundle. A script that does not compile is
 * remembered as such: every call then fails fast with the same reason.
 */
final class HandlerScripts {

    private final ContextFactory contexts;
    private final Cache<Bundle, Compiled> compiled = Caffeine.newBuilder()
            .weakKeys()
            .maximumSize(1_000)
            .executor(Runnable::run)
            .build();

    HandlerScripts(ContextFactory contexts) {
        this.contexts = contexts;
    }

    /** A compiled script, or the reason it does not compile. */
    record Compiled(Script script, String error) {
    }

    /** Only for bundles that have a handler. */
    Compiled of(Bundle bundle) {
        return compiled.get(bundle, this::compile);
    }

    private Compiled compile(Bundle bundle) {
        String path = bundle.handlerPath().orElseThrow();
        String source = bundle.file(path).orElseThrow().text();
        Context cx = contexts.enterContext();
        try {
            return new Compiled(cx.compileString(source, path, 1, null), null);
        } catch (RhinoException e) {
            return new Compiled(null, e.details() + " (" + path + ":" + e.lineNumber() + ")");
        } catch (StackOverflowError | OutOfMemoryError e) {
            return new Compiled(null, "too large or too deeply nested to compile (" + e.getClass().getSimpleName() + ")");
        } finally {
            Context.exit();
        }
    }
}
