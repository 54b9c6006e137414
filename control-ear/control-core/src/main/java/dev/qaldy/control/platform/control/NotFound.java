package dev.qaldy.control.platform.control;

/** No such thing, or nothing the caller may see (HTTP 404). */
public class NotFound extends QaldyException {

    private static final long serialVersionUID = 1L;

    public NotFound(String detail) {
        super(detail);
    }

    @Override
    public int status() {
        return 404;
    }

    @Override
    protected String slug() {
        return "not-found";
    }

    @Override
    public String title() {
        return "Not found";
    }
}
