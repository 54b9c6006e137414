package dev.qaldy.control.platform.control;

/** The request body is over its size limit (HTTP 413). */
public class PayloadTooLarge extends QaldyException {

    private static final long serialVersionUID = 1L;

    public PayloadTooLarge(String detail) {
        super(detail);
    }

    @Override
    public int status() {
        return 413;
    }

    @Override
    protected String slug() {
        return "payload-too-large";
    }

    @Override
    public String title() {
        return "Payload too large";
    }
}
