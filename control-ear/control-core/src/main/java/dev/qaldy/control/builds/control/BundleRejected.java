package dev.qaldy.control.builds.control;

/** An uploaded archive the builder refuses; the message is the build log's reason line, for the owner to read. */
public class BundleRejected extends Exception {

    private static final long serialVersionUID = 1L;

    public BundleRejected(String reason) {
        super(reason);
    }
}
