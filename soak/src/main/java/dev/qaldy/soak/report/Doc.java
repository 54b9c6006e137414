package dev.qaldy.soak.report;

import java.util.ArrayList;
import java.util.List;

/** A report as a list of blocks (headings, paragraphs, tables, lists, preformatted lines), written as Markdown or HTML. */
final class Doc {

    private sealed interface Block permits Heading, Para, Table, Items, Pre {
    }

    private record Heading(int level, String text) implements Block {
    }

    private record Para(String text) implements Block {
    }

    private record Table(List<String> head, List<List<String>> rows) implements Block {
    }

    private record Items(List<String> items) implements Block {
    }

    private record Pre(List<String> lines) implements Block {
    }

    private final String title;
    private final List<Block> blocks = new ArrayList<>();

    Doc(String title) {
        this.title = title;
    }

    Doc heading(int level, String text) {
        blocks.add(new Heading(level, text));
        return this;
    }

    Doc para(String text) {
        blocks.add(new Para(text));
        return this;
    }

    Doc table(List<String> head, List<List<String>> rows) {
        blocks.add(new Table(List.copyOf(head), rows.stream().map(List::copyOf).toList()));
        return this;
    }

    Doc items(List<String> items) {
        blocks.add(new Items(List.copyOf(items)));
        return this;
    }

    Doc pre(List<String> lines) {
        blocks.add(new Pre(List.copyOf(lines)));
        return this;
    }

    String markdown() {
        StringBuilder md = new StringBuilder("# ").append(title).append("\n\n");
        for (Block b : blocks) {
            if (b instanceof Heading h) {
                md.append("#".repeat(h.level())).append(' ').append(h.text()).append("\n\n");
            } else if (b instanceof Para p) {
                md.append(p.text()).append("\n\n");
            } else if (b instanceof Table t) {
                md.append("| ").append(String.join(" | ", cells(t.head()))).append(" |\n|").append("---|".repeat(t.head().size())).append('\n');
                t.rows().forEach(r -> md.append("| ").append(String.join(" | ", cells(r))).append(" |\n"));
                md.append('\n');
            } else if (b instanceof Items l) {
                l.items().forEach(i -> md.append("- ").append(i.replace("\n", " ")).append('\n'));
                md.append('\n');
            } else if (b instanceof Pre p) {
                md.append("```\n");
                p.lines().forEach(line -> md.append(line).append('\n'));
                md.append("```\n\n");
            }
        }
        return md.toString();
    }

    String html() {
        StringBuilder h = new StringBuilder("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>").append(esc(title))
                .append("</title><style>body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:90rem;padding:0 1rem;"
                        + "color:#1c1c1c}table{border-collapse:collapse;margin:1rem 0}th,td{border:1px solid #ccc;padding:.3rem .5rem;"
                        + "text-align:left;vertical-align:top}th{background:#f2f2f2}pre{background:#f7f7f7;padding:.6rem;overflow-x:auto;"
                        + "font-size:13px}.PASS{color:#0a6b2d;font-weight:600}.FAIL{color:#b00020;font-weight:600}</style></head><body>\n<h1>")
                .append(esc(title)).append("</h1>\n");
        for (Block b : blocks) {
            if (b instanceof Heading x) {
                h.append("<h").append(x.level()).append('>').append(esc(x.text())).append("</h").append(x.level()).append(">\n");
            } else if (b instanceof Para p) {
                h.append("<p>").append(inline(p.text())).append("</p>\n");
            } else if (b instanceof Table t) {
                h.append("<table><tr>");
                t.head().forEach(c -> h.append("<th>").append(esc(c)).append("</th>"));
                h.append("</tr>\n");
                for (List<String> r : t.rows()) {
                    h.append("<tr>");
                    r.forEach(c -> h.append(c.equals("PASS") || c.equals("FAIL") ? "<td class=\"" + c + "\">" : "<td>").append(inline(c))
                            .append("</td>"));
                    h.append("</tr>\n");
                }
                h.append("</table>\n");
            } else if (b instanceof Items l) {
                h.append("<ul>");
                l.items().forEach(i -> h.append("<li>").append(inline(i)).append("</li>"));
                h.append("</ul>\n");
            } else if (b instanceof Pre p) {
                h.append("<pre>").append(esc(String.join("\n", p.lines()))).append("</pre>\n");
            }
        }
        return h.append("</body></html>\n").toString();
    }

    private static List<String> cells(List<String> values) {
        return values.stream().map(v -> v.replace("|", "\\|").replace("\n", " ")).toList();
    }

    /** Escaped, with Markdown's **bold** as HTML. */
    private static String inline(String text) {
        return esc(text).replaceAll("\\*\\*(.+?)\\*\\*", "<strong>$1</strong>");
    }

    static String esc(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
