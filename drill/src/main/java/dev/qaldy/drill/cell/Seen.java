package dev.qaldy.drill.cell;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one person saw for one request: the HTTP status (0 when nothing answered), the page's or
 * problem's message in a line, the time to answer in ms, the few headers that say how the gate
 * decided, and the body (bounded by the client).
 *
 * @param status  HTTP status, or 0 for no answer (then {@code message} says why)
 * @param message one line a person would read: a problem's title and detail, a page's heading
 * @param ms      milliseconds from sending to the whole answer
 * @param headers X-Qaldy-Access, X-Qaldy-Cap, X-Qaldy-Shield, X-Qaldy-Code, X-Qaldy-Data(-As-Of), Retry-After, Location,
 *                Server-Timing (its values joined)
 *                (lower-case names), when present
 * @param body    the answer's body (empty when none)
 */
public record Seen(int status, String message, long ms, Map<String, String> headers, String body) {

    private static final Pattern JSON_FIELD = Pattern.compile("\"(title|detail|error)\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern HEADING = Pattern.compile("<h1[^>]*>(.*?)</h1>", Pattern.DOTALL | Pattern.CASE_INSENSITIVE);
    private static final Pattern PARAGRAPH = Pattern.compile("<p[^>]*>(.*?)</p>", Pattern.DOTALL | Pattern.CASE_INSENSITIVE);
    private static final Pattern TAG = Pattern.compile("<[^>]+>");
    private static final int MAX_MESSAGE = 200;

    /** Nothing answered: a connection error or a timeout after {@code ms}. */
    public static Seen noAnswer(String why, long ms) {
        return new Seen(0, why, ms, Map.of(), "");
    }

    /** The header's value (lower-case name), or "" when absent. */
    public String header(String name) {
        return headers.getOrDefault(name.toLowerCase(Locale.ROOT), "");
    }

    /** "503 Temporarily unavailable — … (12 ms, access outage-copy)": the line the report shows. */
    public String summary() {
        StringBuilder line = new StringBuilder(status == 0 ? "no answer" : Integer.toString(status));
        if (!message.isBlank()) {
            line.append(" “").append(message).append('”');
        }
        line.append(" in ").append(ms).append(" ms");
        for (String h : new String[] {"x-qaldy-access", "x-qaldy-site", "x-qaldy-code", "x-qaldy-cap", "x-qaldy-shield", "x-qaldy-data",
            "retry-after"}) {
            if (headers.containsKey(h)) {
                line.append(", ").append(h.replace("x-qaldy-", "")).append(' ').append(headers.get(h));
            }
        }
        return line.toString();
    }

    /**
     * The one line a person reads in {@code body}: a problem JSON's title and detail, else an HTML
     * page's first heading and paragraph, else the text's start; at most 200 characters.
     */
    public static String messageOf(String contentType, String body) {
        String text;
        if (contentType.contains("json")) {
            StringBuilder found = new StringBuilder();
            Matcher m = JSON_FIELD.matcher(body);
            while (m.find()) {
                found.append(found.length() == 0 ? "" : ": ").append(m.group(2).replace("\\\"", "\""));
            }
            text = found.toString();
        } else if (contentType.contains("html")) {
            text = first(HEADING, body) + (first(PARAGRAPH, body).isEmpty() ? "" : " — " + first(PARAGRAPH, body));
        } else {
            text = body;
        }
        text = text.replaceAll("\\s+", " ").strip();
        return text.length() <= MAX_MESSAGE ? text : text.substring(0, MAX_MESSAGE - 1) + "…";
    }

    private static String first(Pattern pattern, String html) {
        Matcher m = pattern.matcher(html);
        return m.find() ? TAG.matcher(m.group(1)).replaceAll("").replace("&amp;", "&").replace("&#39;", "'").strip() : "";
    }
}
