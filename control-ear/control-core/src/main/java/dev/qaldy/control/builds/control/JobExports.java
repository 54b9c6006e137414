package dev.qaldy.control.builds.control;

import java.util.Collections;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.mozilla.javascript.CompilerEnvirons;
import org.mozilla.javascript.Parser;
import org.mozilla.javascript.RhinoException;
import org.mozilla.javascript.ast.AstNode;
import org.mozilla.javascript.ast.AstRoot;
import org.mozilla.javascript.ast.FunctionCall;
import org.mozilla.javascript.ast.Name;
import org.mozilla.javascript.ast.ObjectProperty;
import org.mozilla.javascript.ast.PropertyGet;
import org.mozilla.javascript.ast.StringLiteral;

/**
 * The job handlers a {@code server.js} registers, as the builder reads them from Rhino's parse
 * tree without running the script: every {@code app.job('<name>', …)} whose name is a string
 * literal. The runtime host's sandbox is the only place that runs app code; so when a script
 * registers jobs in a way a reader cannot follow ({@code app.job(name, …)} with a computed name,
 * {@code app} passed on, aliased or shadowed, {@code app['job']}) the list is not known
 * ({@link #complete()} false) and nothing is refused for it.
 *
 * @param names    the literal job names found, sorted; at most {@value #MAX_JOBS}
 * @param complete whether these are all the jobs the script can register
 * @param note     why the list is incomplete, or null
 */
public record JobExports(SortedSet<String> names, boolean complete, String note) {

    /** Most job names kept for one version; a script with more is "not known". */
    public static final int MAX_JOBS = 100;
    /** The sandbox's rule for a job name ({@code app.job} throws for any other). */
    public static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    public JobExports {
        names = Collections.unmodifiableSortedSet(new TreeSet<>(names));
    }

    /** A version without {@code server.js}: no jobs, known. */
    public static JobExports none() {
        return new JobExports(new TreeSet<>(), true, null);
    }

    /** A list that is not known, with the reason. */
    public static JobExports unknown(String note) {
        return new JobExports(new TreeSet<>(), false, note);
    }

    /**
     * Reads a script's job registrations.
     *
     * @param source the script's text
     * @param path   its path in the bundle, for messages
     */
    public static JobExports read(String source, String path) {
        AstRoot root;
        try {
            CompilerEnvirons env = new CompilerEnvirons();
            env.setLanguageVersion(org.mozilla.javascript.Context.VERSION_ES6);
            env.setRecordingComments(false);
            env.setIdeMode(false);
            root = new Parser(env).parse(source, path, 1);
        } catch (RhinoException e) {
            return unknown(path + " does not parse (" + e.details() + ", line " + e.lineNumber() + ")");
        } catch (StackOverflowError e) {
            return unknown(path + " is nested too deeply to read");
        }
        TreeSet<String> names = new TreeSet<>();
        String[] dynamic = new String[1];
        root.visit(node -> {
            if (dynamic[0] != null) {
                return false;
            }
            if (node instanceof Name name && name.getIdentifier().equals("app") && isReference(name) && !isTargetOfProperty(name)) {
                dynamic[0] = "app is used other than as app.<method>(…) (line " + node.getLineno() + ")";
            } else if (node instanceof PropertyGet get && isApp(get.getTarget()) && get.getProperty().getIdentifier().equals("job")) {
                String literal = literalFirstArgument(get);
                if (literal == null) {
                    dynamic[0] = "app.job is called with a computed name or passed on (line " + node.getLineno() + ")";
                } else if (NAME.matcher(literal).matches()) {
                    names.add(literal);
                }
            }
            return true;
        });
        if (dynamic[0] != null) {
            return unknown(path + " registers jobs in a way the builder cannot read: " + dynamic[0]);
        }
        if (names.size() > MAX_JOBS) {
            return unknown(path + " registers more than " + MAX_JOBS + " jobs");
        }
        return new JobExports(names, true, null);
    }

    /** The names as one line: {@code "digest, report"}, or {@code "no jobs"}. */
    public String describe() {
        return names.isEmpty() ? "no jobs" : String.join(", ", names);
    }

    /** The names as stored with the build: comma-separated ({@code ""} for none), null when not known. */
    public String stored() {
        return complete ? String.join(",", names) : null;
    }

    /** What {@link #stored()} wrote: null → not known. */
    public static JobExports fromStored(String stored) {
        if (stored == null) {
            return unknown("the build did not record its jobs");
        }
        return new JobExports(stored.isEmpty() ? new TreeSet<>() : new TreeSet<>(List.of(stored.split(","))), true, null);
    }

    private static boolean isApp(AstNode node) {
        return node instanceof Name name && name.getIdentifier().equals("app");
    }

    /** False for the {@code app} of {@code x.app} and of {@code {app: …}}: names, not the global. */
    private static boolean isReference(Name name) {
        return !(name.getParent() instanceof PropertyGet get && get.getProperty() == name)
                && !(name.getParent() instanceof ObjectProperty property && property.getLeft() == name);
    }

    private static boolean isTargetOfProperty(Name name) {
        return name.getParent() instanceof PropertyGet get && get.getTarget() == name;
    }

    /** The string literal name of {@code app.job('<name>', …)}, or null when the property is not called with one. */
    private static String literalFirstArgument(PropertyGet get) {
        if (get.getParent() instanceof FunctionCall call && call.getTarget() == get && !call.getArguments().isEmpty()
                && call.getArguments().get(0) instanceof StringLiteral literal) {
            return literal.getValue();
        }
        return null;
    }
}
