package dev.qaldy.drill.cast;

import dev.qaldy.drill.cell.DrillError;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/** The archives a person uploads as a build: a folder's files, or files given by name and text. */
public final class Zips {

    private Zips() {
    }

    /** A zip of a folder's files, paths relative to it, as a person uploads it; {@link DrillError} when unreadable. */
    public static byte[] of(Path folder) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes); var files = Files.walk(folder)) {
            for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                zip.putNextEntry(new ZipEntry(folder.relativize(file).toString().replace('\\', '/')));
                Files.copy(file, zip);
                zip.closeEntry();
            }
        } catch (IOException e) {
            throw new DrillError("cannot zip " + folder + ": " + e.getMessage(), e);
        }
        return bytes.toByteArray();
    }

    /**
     * A zip of a folder's files made for {@code app}: its {@code qaldy.json} says {@code "name":"app"}
     * (the API refuses an archive whose manifest names another app, issue 20), the rest as {@link #of(Path)}.
     */
    public static byte[] of(Path folder, String app) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes); var files = Files.walk(folder)) {
            for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                String name = folder.relativize(file).toString().replace('\\', '/');
                zip.putNextEntry(new ZipEntry(name));
                if (name.equals("qaldy.json")) {
                    zip.write(Files.readString(file).replaceFirst("\"name\"\\s*:\\s*\"[^\"]*\"", "\"name\":\"" + app + "\"")
                            .getBytes(StandardCharsets.UTF_8));
                } else {
                    Files.copy(file, zip);
                }
                zip.closeEntry();
            }
        } catch (IOException e) {
            throw new DrillError("cannot zip " + folder + ": " + e.getMessage(), e);
        }
        return bytes.toByteArray();
    }

    /** A zip of {@code files} (path in the archive → UTF-8 text), in the map's order. */
    public static byte[] of(Map<String, String> files) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            for (Map.Entry<String, String> file : files.entrySet()) {
                zip.putNextEntry(new ZipEntry(file.getKey()));
                zip.write(file.getValue().getBytes(StandardCharsets.UTF_8));
                zip.closeEntry();
            }
        } catch (IOException e) {
            throw new DrillError("cannot zip " + files.keySet() + ": " + e.getMessage(), e);
        }
        return bytes.toByteArray();
    }
}
