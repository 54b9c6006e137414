package dev.qaldy.control.builds.control;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.LocalDateTime;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * Turns an uploaded source archive into a bundle, or refuses it (docs/cell-contract.md, "Bundles").
 * Refused: not a zip, absolute paths, {@code ..}, backslashes, symbolic links, too many entries, too
 * many bytes once inflated, no or bad {@code qaldy.json}. The bundle holds the accepted files only,
 * sorted by name, with one fixed time and no extra fields, so the same files always give the same
 * SHA-256. Nothing from the archive is ever written to the file system under its own name.
 */
public class BundlePackager {

    /** The time every bundle entry carries (not 1980-01-01 00:00, which the JDK writes as a time-zone dependent extra field). */
    static final LocalDateTime FIXED_TIME = LocalDateTime.of(2000, 1, 1, 0, 0);
    /** Longest entry name accepted, in characters. */
    static final int MAX_NAME_LENGTH = 1024;
    /** Finder's resource-fork folder: dropped, not refused, since macOS adds it to every zip it makes. */
    static final String MACOS_METADATA = "__MACOSX/";

    private final BundleLimits limits;

    public BundlePackager(BundleLimits limits) {
        this.limits = limits;
    }

    /**
     * Checks {@code upload} and writes the bundle to {@code bundle}.
     *
     * @param log receives one line per step, for the build log
     * @throws BundleRejected with the reason, for the build log
     * @throws IOException    when the files cannot be read or written (a server problem, not the archive's)
     */
    public PackedBundle pack(Path upload, Path bundle, List<String> log) throws BundleRejected, IOException {
        List<ZipDirectory.Entry> entries = ZipDirectory.read(upload, limits.maxEntries());
        log.add("archive: " + entries.size() + " entries, " + Files.size(upload) + " bytes");
        TreeSet<String> files = new TreeSet<>();
        Set<String> seen = new HashSet<>();
        long declared = 0;
        int skipped = 0;
        for (ZipDirectory.Entry entry : entries) {
            String problem = nameProblem(entry.name());
            if (problem != null) {
                throw new BundleRejected(problem);
            }
            if (!seen.add(entry.name())) {
                throw new BundleRejected("entry \"" + shown(entry.name()) + "\" appears twice");
            }
            if (entry.isSymlink()) {
                throw new BundleRejected("entry \"" + shown(entry.name()) + "\" is a symbolic link; links are not allowed");
            }
            int type = entry.unixFileType();
            if (type != 0 && type != 0x8000 && type != 0x4000) {
                throw new BundleRejected("entry \"" + shown(entry.name()) + "\" is a special file; only files and folders are allowed");
            }
            if (entry.isEncrypted()) {
                throw new BundleRejected("entry \"" + shown(entry.name()) + "\" is encrypted; encrypted archives are not supported");
            }
            if (entry.name().startsWith(MACOS_METADATA)) {
                skipped++;
            } else if (!entry.isDirectory()) {
                files.add(entry.name());
                declared = saturatedAdd(declared, entry.declaredSize());
            }
        }
        if (skipped > 0) {
            log.add("skipped " + skipped + " macOS metadata entries under " + MACOS_METADATA);
        }
        if (declared > limits.maxUncompressedBytes()) {
            throw new BundleRejected(tooBig());
        }
        if (!files.contains(Manifest.FILE)) {
            throw new BundleRejected("no " + Manifest.FILE + " at the archive root");
        }
        try (ZipFile zip = new ZipFile(upload.toFile(), java.nio.charset.StandardCharsets.UTF_8)) {
            if (zip.size() != entries.size()) {
                throw new BundleRejected("the zip archive is damaged (inconsistent central directory)");
            }
            Manifest manifest = Manifest.parse(readManifest(zip), files);
            log.add("manifest: name=" + manifest.name() + ", kind=" + manifest.kind()
                    + (manifest.handler() == null ? "" : ", handler=" + manifest.handler()));
            return write(zip, files, manifest, bundle, log);
        } catch (ZipException e) {
            throw new BundleRejected("the upload is not a valid zip archive (" + e.getMessage() + ")");
        }
    }

    private byte[] readManifest(ZipFile zip) throws IOException, BundleRejected {
        ZipEntry entry = zip.getEntry(Manifest.FILE);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (InputStream in = zip.getInputStream(entry)) {
            if (copy(in, out, Manifest.MAX_BYTES) > Manifest.MAX_BYTES) {
                throw new BundleRejected(Manifest.FILE + " is larger than " + Manifest.MAX_BYTES + " bytes");
            }
        }
        return out.toByteArray();
    }

    private PackedBundle write(ZipFile zip, TreeSet<String> files, Manifest manifest, Path bundle, List<String> log)
            throws IOException, BundleRejected {
        MessageDigest sha256 = sha256();
        long total = 0;
        try (ZipOutputStream out = new ZipOutputStream(
                new DigestOutputStream(new BufferedOutputStream(Files.newOutputStream(bundle)), sha256))) {
            for (String name : files) {
                ZipEntry source = zip.getEntry(name);
                if (source == null || source.isDirectory()) {
                    throw new BundleRejected("the zip archive is damaged (entry \"" + shown(name) + "\" unreadable)");
                }
                ZipEntry entry = new ZipEntry(name);
                entry.setTimeLocal(FIXED_TIME);
                entry.setMethod(ZipEntry.DEFLATED);
                out.putNextEntry(entry);
                try (InputStream in = zip.getInputStream(source)) {
                    total += copy(in, out, limits.maxUncompressedBytes() - total);
                }
                if (total > limits.maxUncompressedBytes()) {
                    throw new BundleRejected(tooBig());
                }
                out.closeEntry();
            }
        }
        String hex = HexFormat.of().formatHex(sha256.digest());
        log.add("bundle: " + files.size() + " files, " + total + " bytes uncompressed, " + Files.size(bundle)
                + " bytes zipped, sha256 " + hex);
        return new PackedBundle(bundle, hex, files.size(), total, manifest);
    }

    /**
     * Why an entry name is refused, or {@code null} when it is a plain relative path.
     * Directory names end with '/'.
     */
    static String nameProblem(String name) {
        if (name.isEmpty()) {
            return "an entry has an empty name";
        }
        String quoted = "entry \"" + shown(name) + "\"";
        if (name.length() > MAX_NAME_LENGTH) {
            return quoted + " has a name longer than " + MAX_NAME_LENGTH + " characters";
        }
        if (name.indexOf('\\') >= 0) {
            return quoted + " contains a backslash; use '/' between folders";
        }
        if (name.startsWith("/") || (name.length() > 1 && name.charAt(1) == ':' && Character.isLetter(name.charAt(0)))) {
            return quoted + " has an absolute path; paths must be relative to the archive root";
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                return "an entry name contains a control character";
            }
        }
        String path = name.endsWith("/") ? name.substring(0, name.length() - 1) : name;
        for (String segment : path.split("/", -1)) {
            if (segment.equals("..")) {
                return quoted + " contains '..'; entries may not leave the archive root";
            }
            if (segment.isEmpty() || segment.equals(".")) {
                return quoted + " is not a plain relative path (empty or '.' segment)";
            }
        }
        return null;
    }

    /** Copies at most {@code budget + 1} bytes; returns how many were copied (more than budget means over). */
    private static long copy(InputStream in, OutputStream out, long budget) throws IOException {
        byte[] buffer = new byte[64 * 1024];
        long copied = 0;
        int read;
        while ((read = in.read(buffer, 0, (int) Math.min(buffer.length, Math.max(0, budget - copied) + 1))) > 0) {
            out.write(buffer, 0, read);
            copied += read;
            if (copied > budget) {
                break;
            }
        }
        return copied;
    }

    private String tooBig() {
        return "the archive holds more than " + limits.maxUncompressedBytes() + " bytes uncompressed ("
                + (limits.maxUncompressedBytes() / (1024 * 1024)) + " MiB is the limit)";
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    private static String shown(String name) {
        StringBuilder safe = new StringBuilder();
        name.codePoints().limit(120).forEach(c -> safe.appendCodePoint(c < 0x20 || c == 0x7f ? '?' : c));
        return name.length() > 120 ? safe + "…" : safe.toString();
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
    }
}
