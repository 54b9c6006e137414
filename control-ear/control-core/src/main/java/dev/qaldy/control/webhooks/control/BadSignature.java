package dev.qaldy.control.webhooks.control;

import dev.qaldy.control.platform.control.QaldyException;

/** A webhook delivery whose signature is missing or wrong (HTTP 401). */
public class BadSignature extends QaldyException {

    private static final long serialVersionUID = 1L;

    public BadSignature(String detail) {
        super(detail);
    }

    @Override
    public int status() {
        return 401;
    }

    @Override
    protected String slug() {
        return "bad-signature";
    }

    @Override
    public String title() {
        return "Bad signature";
    }
}
