package dev.qaldy.contract.session;

/** A token that is not ours, was altered, is expired or cannot be read; the reason is for logs only. */
public class InvalidTokenException extends Exception {

    private static final long serialVersionUID = 1L;

    public InvalidTokenException(String reason) {
        super(reason);
    }

    public InvalidTokenException(String reason, Throwable cause) {
        super(reason, cause);
    }
}
