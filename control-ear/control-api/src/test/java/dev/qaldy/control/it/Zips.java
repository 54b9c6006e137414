package dev.qaldy.control.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/** Source archives made in the test. */
final class Zips {

    private Zips() {
    }

    /** A zip of (name → text) entries, in the map's order. */
    static byte[] of(Map<String, String> files) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            for (Map.Entry<String, String> file : files.entrySet()) {
                zip.putNextEntry(new ZipEntry(file.getKey()));
                zip.write(file.getValue().getBytes(StandardCharsets.UTF_8));
                zip.closeEntry();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** A small real app: a page and a server.js handler. */
    static byte[] guestbook(String name) {
        var files = new java.util.LinkedHashMap<String, String>();
        files.put("public/index.html", "<!doctype html><title>Guestbook</title><form method=post action=/api/sign></form>");
        files.put("server.js", "app.post('/api/sign', function (req) { return {status: 200, json: {message: 'Thanks, ' + req.json.name}}; });");
        files.put("qaldy.json", "{\"name\":\"" + name + "\",\"kind\":\"app\",\"handler\":\"server.js\"}");
        return of(files);
    }
}
