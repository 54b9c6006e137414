package dev.qaldy.control.platform.control;

/** The caller is known but may not do this, e.g. a viewer trying an owner's action (HTTP 403). */
public class NotPermitted extends QaldyException {

    private static final long serialVersionUID = 1L;

    public NotPermitted(String detail) {
        super(detail);
    }

    @Override
    public int status() {
        return 403;
    }

    @Override
    protected String slug() {
        return "not-permitted";
    }

    @Override
    public String title() {
        return "Not permitted";
    }
}
