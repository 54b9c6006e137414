package dev.qaldy.control.builds.control;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;

/**
 * Writes zip archives byte by byte, so tests can make what ordinary tools refuse to: any entry
 * name, and a Unix mode in the external attributes (symbolic links).
 */
final class TestZips {

    static final int REGULAR = 0100644;
    static final int SYMLINK = 0120777;

    record Entry(String name, byte[] data, int unixMode) {

        static Entry file(String name, String text) {
            return new Entry(name, text.getBytes(StandardCharsets.UTF_8), REGULAR);
        }

        static Entry link(String name, String target) {
            return new Entry(name, target.getBytes(StandardCharsets.UTF_8), SYMLINK);
        }
    }

    private TestZips() {
    }

    /** A stored (uncompressed) zip of {@code entries}, in the given order. */
    static byte[] zip(List<Entry> entries) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<byte[]> central = new ArrayList<>();
        for (Entry e : entries) {
            byte[] name = e.name().getBytes(StandardCharsets.UTF_8);
            CRC32 crc = new CRC32();
            crc.update(e.data());
            int offset = out.size();
            ByteBuffer local = le(30 + name.length);
            local.putInt(0x04034b50).putShort((short) 20).putShort((short) 0x0800).putShort((short) 0)
                    .putShort((short) 0).putShort((short) 0x21).putInt((int) crc.getValue())
                    .putInt(e.data().length).putInt(e.data().length).putShort((short) name.length).putShort((short) 0)
                    .put(name);
            out.writeBytes(local.array());
            out.writeBytes(e.data());
            ByteBuffer c = le(46 + name.length);
            c.putInt(0x02014b50).putShort((short) ((3 << 8) | 20)).putShort((short) 20).putShort((short) 0x0800)
                    .putShort((short) 0).putShort((short) 0).putShort((short) 0x21).putInt((int) crc.getValue())
                    .putInt(e.data().length).putInt(e.data().length).putShort((short) name.length)
                    .putShort((short) 0).putShort((short) 0).putShort((short) 0).putShort((short) 0)
                    .putInt(e.unixMode() << 16).putInt(offset).put(name);
            central.add(c.array());
        }
        int directoryOffset = out.size();
        central.forEach(out::writeBytes);
        int directorySize = out.size() - directoryOffset;
        ByteBuffer end = le(22);
        end.putInt(0x06054b50).putShort((short) 0).putShort((short) 0).putShort((short) entries.size())
                .putShort((short) entries.size()).putInt(directorySize).putInt(directoryOffset).putShort((short) 0);
        out.writeBytes(end.array());
        return out.toByteArray();
    }

    private static ByteBuffer le(int size) {
        return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    }
}
