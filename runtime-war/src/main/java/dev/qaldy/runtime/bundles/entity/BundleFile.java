package dev.qaldy.runtime.bundles.entity;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** One file of a bundle, held in memory, with the SHA-256 of its content as its ETag. */
public final class BundleFile {

    private final byte[] content;
    private final String sha256;

    private BundleFile(byte[] content, String sha256) {
        this.content = content;
        this.sha256 = sha256;
    }

    /** Takes ownership of {@code content}: the caller must not change it afterwards. */
    public static BundleFile of(byte[] content) {
        return new BundleFile(content, sha256Hex(content));
    }

    /** Size in bytes. */
    public int size() {
        return content.length;
    }

    /** Lower-case hex SHA-256 of the content. */
    public String sha256() {
        return sha256;
    }

    /** A strong entity tag: the quoted content hash. */
    public String etag() {
        return "\"" + sha256 + "\"";
    }

    /** The content as UTF-8 text (for scripts and manifests). */
    public String text() {
        return new String(content, StandardCharsets.UTF_8);
    }

    public void writeTo(OutputStream out) throws IOException {
        out.write(content);
    }

    /** Writes {@code length} bytes from {@code offset} (a byte range of the file). */
    public void writeTo(OutputStream out, int offset, int length) throws IOException {
        out.write(content, offset, length);
    }

    /** Lower-case hex SHA-256 of some bytes. */
    public static String sha256Hex(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
