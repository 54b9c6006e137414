package dev.qaldy.gate.proxy;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A request body on its way upstream: fails the transfer once more than {@code limit} bytes
 * were read, or once it arrives slower than its {@link BodyPace} allows, and remembers whether it
 * was the limit, the pace or the client that ended it.
 */
public final class BoundedInputStream extends FilterInputStream {

    private final long limit;
    private final BodyPace pace;
    private final long startedNanos;
    private long count;
    private volatile boolean exceeded;
    private volatile boolean tooSlow;
    private volatile boolean clientFailed;

    /** @param limit most bytes let through; negative for no limit. No minimum pace. */
    BoundedInputStream(InputStream in, long limit) {
        this(in, limit, BodyPace.NONE);
    }

    /**
     * @param limit most bytes let through; negative for no limit
     * @param pace  how slowly the body may arrive
     */
    BoundedInputStream(InputStream in, long limit, BodyPace pace) {
        super(in);
        this.limit = limit;
        this.pace = pace;
        this.startedNanos = System.nanoTime();
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n;
        try {
            n = super.read(b, off, len);
        } catch (IOException e) {
            clientFailed = true;
            throw e;
        }
        if (n > 0) {
            count += n;
            if (limit >= 0 && count > limit) {
                exceeded = true;
                throw new IOException("request body over " + limit + " bytes");
            }
        }
        if (n >= 0 && pace.late(count, System.nanoTime() - startedNanos)) {
            tooSlow = true;
            throw new IOException("request body slower than " + pace);
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        throw new IOException("skip is not supported on a proxied body");
    }

    /** True once the body went over the limit. */
    boolean exceeded() {
        return exceeded;
    }

    /** True once the body arrived slower than its pace allows. */
    boolean tooSlow() {
        return tooSlow;
    }

    /** True when reading from the client failed (it went away mid-body). */
    boolean clientFailed() {
        return clientFailed;
    }
}
