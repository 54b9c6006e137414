package dev.qaldy.runtime.sandbox.control;

/**
 * How deeply a JSON text nests, measured without recursion before the runtime host parses it for
 * {@code req.json} or a job's {@code ctx.json}. Rhino's JSON parser recurses once per level, so a
 * body of a few thousand {@code [} would run the host's thread out of stack; such a body is the
 * sender's mistake (400), not the app's error. Config {@code qaldy.runtime.max-json-depth}.
 */
public final class JsonDepth {

    /** The default bound, in levels of {@code [} and {@code {} (Jackson's is 1000, .NET's 64). */
    public static final int DEFAULT_MAX = 256;

    private JsonDepth() {
    }

    /**
     * Whether {@code json} opens more than {@code max} arrays or objects inside each other. Brackets
     * inside strings (with escapes) do not count; the text need not be valid JSON. Linear time, no
     * allocation, stops at the first level past {@code max}.
     */
    public static boolean exceeds(String json, int max) {
        if (json == null) {
            return false;
        }
        int depth = 0;
        boolean inString = false;
        for (int i = 0, n = json.length(); i < n; i++) {
            char c = json.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '[' || c == '{') {
                if (++depth > max) {
                    return true;
                }
            } else if ((c == ']' || c == '}') && depth > 0) {
                depth--;
            }
        }
        return false;
    }
}
