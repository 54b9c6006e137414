package dev.qaldy.control.builds.control;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a zip's central directory on its own, for what {@link java.util.zip.ZipFile} does not show:
 * each entry's external attributes (where Unix tools put the file mode, so symbolic links can be
 * refused) and declared sizes, before any entry is inflated.
 */
final class ZipDirectory {

    private static final int EOCD_SIGNATURE = 0x06054b50;
    private static final int ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
    private static final int ZIP64_EOCD_SIGNATURE = 0x06064b50;
    private static final int CENTRAL_SIGNATURE = 0x02014b50;
    private static final int EOCD_LENGTH = 22;
    private static final int MAX_COMMENT = 0xFFFF;
    private static final long UNKNOWN_32 = 0xFFFFFFFFL;

    /**
     * One central directory record.
     *
     * @param name               the entry's name, decoded as UTF-8
     * @param flags              general purpose bit flags (bit 0: encrypted)
     * @param externalAttributes high 16 bits: Unix mode when made on Unix
     * @param declaredSize       uncompressed size the archive claims, in bytes ({@code Long.MAX_VALUE} when unreadable)
     */
    record Entry(String name, int flags, long externalAttributes, long declaredSize) {

        /** Whether the Unix mode says symbolic link (S_IFLNK). */
        boolean isSymlink() {
            return unixFileType() == 0xA000;
        }

        /** S_IFMT bits of the Unix mode, 0 when none was recorded. */
        int unixFileType() {
            return (int) ((externalAttributes >>> 16) & 0xF000);
        }

        boolean isDirectory() {
            return name.endsWith("/");
        }

        boolean isEncrypted() {
            return (flags & 1) != 0;
        }
    }

    private ZipDirectory() {
    }

    /**
     * The entries of the central directory, in archive order.
     *
     * @param maxEntries refuse before parsing when the archive says it holds more
     * @throws BundleRejected when the file is not a zip, is damaged, or holds too many entries
     */
    static List<Entry> read(Path zip, int maxEntries) throws BundleRejected, IOException {
        try (RandomAccessFile file = new RandomAccessFile(zip.toFile(), "r")) {
            long length = file.length();
            if (length < EOCD_LENGTH) {
                throw new BundleRejected("the upload is not a zip archive (too short)");
            }
            int tailLength = (int) Math.min(length, EOCD_LENGTH + MAX_COMMENT);
            byte[] tail = new byte[tailLength];
            file.seek(length - tailLength);
            file.readFully(tail);
            ByteBuffer t = ByteBuffer.wrap(tail).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            int eocd = -1;
            for (int i = tailLength - EOCD_LENGTH; i >= 0; i--) {
                if (t.getInt(i) == EOCD_SIGNATURE && i + EOCD_LENGTH + u16(t, i + 20) <= tailLength) {
                    eocd = i;
                    break;
                }
            }
            if (eocd < 0) {
                throw new BundleRejected("the upload is not a zip archive (no end of central directory)");
            }
            long entries = u16(t, eocd + 10);
            long directorySize = u32(t, eocd + 12);
            long directoryOffset = u32(t, eocd + 16);
            if (entries == 0xFFFF || directorySize == UNKNOWN_32 || directoryOffset == UNKNOWN_32) {
                long eocdPosition = length - tailLength + eocd;
                long[] zip64 = readZip64(file, eocdPosition);
                entries = zip64[0];
                directorySize = zip64[1];
                directoryOffset = zip64[2];
            }
            if (entries > maxEntries) {
                throw new BundleRejected("the archive has " + entries + " entries; at most " + maxEntries + " are allowed");
            }
            if (directoryOffset < 0 || directorySize < 0 || directoryOffset + directorySize > length) {
                throw new BundleRejected("the zip archive is damaged (central directory out of bounds)");
            }
            byte[] directory = new byte[(int) directorySize];
            file.seek(directoryOffset);
            file.readFully(directory);
            return parse(ByteBuffer.wrap(directory).order(java.nio.ByteOrder.LITTLE_ENDIAN), entries);
        }
    }

    private static long[] readZip64(RandomAccessFile file, long eocdPosition) throws IOException, BundleRejected {
        long locator = eocdPosition - 20;
        if (locator < 0) {
            throw new BundleRejected("the zip archive is damaged (no ZIP64 locator)");
        }
        ByteBuffer loc = readAt(file, locator, 20);
        if (loc.getInt(0) != ZIP64_LOCATOR_SIGNATURE) {
            throw new BundleRejected("the zip archive is damaged (no ZIP64 locator)");
        }
        long recordPosition = loc.getLong(8);
        if (recordPosition < 0 || recordPosition + 56 > eocdPosition) {
            throw new BundleRejected("the zip archive is damaged (bad ZIP64 record)");
        }
        ByteBuffer record = readAt(file, recordPosition, 56);
        if (record.getInt(0) != ZIP64_EOCD_SIGNATURE) {
            throw new BundleRejected("the zip archive is damaged (bad ZIP64 record)");
        }
        return new long[] {record.getLong(32), record.getLong(40), record.getLong(48)};
    }

    private static ByteBuffer readAt(RandomAccessFile file, long position, int length) throws IOException {
        byte[] bytes = new byte[length];
        file.seek(position);
        file.readFully(bytes);
        return ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    }

    private static List<Entry> parse(ByteBuffer d, long entries) throws BundleRejected {
        List<Entry> result = new ArrayList<>();
        int p = 0;
        for (long n = 0; n < entries; n++) {
            if (p + 46 > d.limit() || d.getInt(p) != CENTRAL_SIGNATURE) {
                throw new BundleRejected("the zip archive is damaged (bad central directory record)");
            }
            int flags = u16(d, p + 8);
            long size = u32(d, p + 24);
            int nameLength = u16(d, p + 28);
            int extraLength = u16(d, p + 30);
            int commentLength = u16(d, p + 32);
            long external = u32(d, p + 38);
            int next = p + 46 + nameLength + extraLength + commentLength;
            if (next > d.limit()) {
                throw new BundleRejected("the zip archive is damaged (central directory record overruns)");
            }
            String name = utf8(d, p + 46, nameLength);
            if (size == UNKNOWN_32) {
                size = zip64Size(d, p + 46 + nameLength, extraLength);
            }
            result.add(new Entry(name, flags, external, size));
            p = next;
        }
        return result;
    }

    /** The uncompressed size from a ZIP64 extra field (id 1), which comes first when present. */
    private static long zip64Size(ByteBuffer d, int from, int length) {
        int p = from;
        while (p + 4 <= from + length) {
            int id = u16(d, p);
            int size = u16(d, p + 2);
            if (id == 1 && size >= 8 && p + 12 <= from + length) {
                long value = d.getLong(p + 4);
                return value < 0 ? Long.MAX_VALUE : value;
            }
            p += 4 + size;
        }
        return Long.MAX_VALUE;
    }

    private static String utf8(ByteBuffer d, int from, int length) throws BundleRejected {
        try {
            CharBuffer chars = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(d.slice(from, length));
            return chars.toString();
        } catch (CharacterCodingException e) {
            throw new BundleRejected("an entry name is not valid UTF-8");
        }
    }

    private static int u16(ByteBuffer b, int at) {
        return b.getShort(at) & 0xFFFF;
    }

    private static long u32(ByteBuffer b, int at) {
        return b.getInt(at) & UNKNOWN_32;
    }
}
