package dev.qaldy.control.platform.control;

/** The request clashes with the current state, e.g. a name already taken (HTTP 409). */
public class Conflict extends QaldyException {

    private static final long serialVersionUID = 1L;

    public Conflict(String detail) {
        super(detail);
    }

    @Override
    public int status() {
        return 409;
    }

    @Override
    protected String slug() {
        return "conflict";
    }

    @Override
    public String title() {
        return "Conflict";
    }
}
