package dev.qaldy.runtime.sites.control;

import dev.qaldy.runtime.platform.BadRequestException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Turns the raw request path into the decoded path used to look files and handlers up, refusing
 * (400) anything that could climb out of the bundle or mean two things: {@code .} and {@code ..}
 * segments (also percent-encoded, e.g. {@code %2e%2e}), backslashes, encoded slashes, NUL and other
 * control characters, and malformed percent-encoding or UTF-8.
 */
public final class RequestPaths {

    /** Longest raw path accepted, in characters. */
    static final int MAX_LENGTH = 2048;

    private RequestPaths() {
    }

    /**
     * @param raw the path as sent, still percent-encoded, without query (e.g. {@code getRequestURI()})
     * @return the decoded path, starting with {@code /}
     * @throws BadRequestException when the path is unsafe or malformed
     */
    public static String decode(String raw) {
        if (raw == null || raw.isEmpty()) {
            return "/";
        }
        if (raw.length() > MAX_LENGTH) {
            throw new BadRequestException("The path is too long.");
        }
        if (raw.charAt(0) != '/') {
            throw new BadRequestException("The path must start with a slash.");
        }
        ByteBuffer bytes = ByteBuffer.allocate(raw.length() * 3);
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%') {
                if (i + 2 >= raw.length()) {
                    throw malformed();
                }
                int hi = Character.digit(raw.charAt(i + 1), 16);
                int lo = Character.digit(raw.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    throw malformed();
                }
                int b = (hi << 4) | lo;
                if (b == '/') {
                    throw new BadRequestException("Encoded slashes are not allowed in paths.");
                }
                bytes.put((byte) b);
                i += 2;
            } else {
                bytes.put(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
            }
        }
        bytes.flip();
        String path;
        try {
            CharBuffer chars = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(bytes);
            path = chars.toString();
        } catch (CharacterCodingException e) {
            throw malformed();
        }
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                throw new BadRequestException("Control characters are not allowed in paths.");
            }
            if (c == '\\') {
                throw new BadRequestException("Backslashes are not allowed in paths.");
            }
        }
        for (String segment : path.split("/", -1)) {
            if (segment.equals(".") || segment.equals("..")) {
                throw new BadRequestException("Dot segments are not allowed in paths.");
            }
        }
        return path;
    }

    /** Percent-encodes a decoded path for a {@code Location} header; slashes stay. */
    public static String encode(String path) {
        StringBuilder out = new StringBuilder(path.length() + 16);
        for (byte b : path.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || "/-._~!$&'()*+,;=:@".indexOf(c) >= 0) {
                out.append((char) c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return out.toString();
    }

    private static BadRequestException malformed() {
        return new BadRequestException("The path is not valid percent-encoded UTF-8.");
    }
}
