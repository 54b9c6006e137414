package dev.qaldy.gate.hooks;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Objects;

/**
 * One delivery the gate checked and queued (issue 17): what it hands over, as the sender sent it.
 *
 * @param deliveryId     the id the sender was told (a random UUID)
 * @param receivedAt     when the gate checked it
 * @param signature      the {@code Qaldy-Signature} header it checked
 * @param idempotencyKey the sender's key, or null
 * @param contentType    the sender's {@code Content-Type}, or null
 */
public record QueuedDelivery(String deliveryId, String app, String hook, Instant receivedAt, String signature, String idempotencyKey,
        String contentType, byte[] body) {

    /** The record format's first byte; another is not this gate's and is dropped, never replayed. */
    static final byte FORMAT = 1;

    public QueuedDelivery {
        Objects.requireNonNull(deliveryId, "deliveryId");
        Objects.requireNonNull(app, "app");
        Objects.requireNonNull(hook, "hook");
        Objects.requireNonNull(receivedAt, "receivedAt");
        Objects.requireNonNull(signature, "signature");
        Objects.requireNonNull(body, "body");
    }

    /** Bytes it takes in the queue's bounds (the body and the headers kept). */
    public long size() {
        return body.length + signature.length() + (idempotencyKey == null ? 0 : idempotencyKey.length())
                + (contentType == null ? 0 : contentType.length()) + 128;
    }

    byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(body.length + 512);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT);
            out.writeUTF(deliveryId);
            out.writeUTF(app);
            out.writeUTF(hook);
            out.writeLong(receivedAt.toEpochMilli());
            out.writeUTF(signature);
            writeNullable(out, idempotencyKey);
            writeNullable(out, contentType);
            out.writeInt(body.length);
            out.write(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** @throws IOException when {@code bytes} are not a whole record of this format */
    static QueuedDelivery decode(byte[] bytes) throws IOException {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            if (in.readByte() != FORMAT) {
                throw new IOException("not a queued delivery of format " + FORMAT);
            }
            String deliveryId = in.readUTF();
            String app = in.readUTF();
            String hook = in.readUTF();
            Instant receivedAt = Instant.ofEpochMilli(in.readLong());
            String signature = in.readUTF();
            String key = readNullable(in);
            String type = readNullable(in);
            int length = in.readInt();
            if (length < 0 || length != in.available()) {
                throw new IOException("a body of " + length + " bytes where " + in.available() + " are left");
            }
            return new QueuedDelivery(deliveryId, app, hook, receivedAt, signature, key, type, in.readNBytes(length));
        }
    }

    private static void writeNullable(DataOutputStream out, String value) throws IOException {
        out.writeBoolean(value != null);
        if (value != null) {
            out.writeUTF(value);
        }
    }

    private static String readNullable(DataInputStream in) throws IOException {
        return in.readBoolean() ? in.readUTF() : null;
    }
}
