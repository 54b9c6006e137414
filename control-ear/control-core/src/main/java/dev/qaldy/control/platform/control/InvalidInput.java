package dev.qaldy.control.platform.control;

/** The request breaks a rule of the API (HTTP 400); the detail names the rule. */
public class InvalidInput extends QaldyException {

    private static final long serialVersionUID = 1L;

    public InvalidInput(String detail) {
        super(detail);
    }

    @Override
    public int status() {
        return 400;
    }

    @Override
    protected String slug() {
        return "invalid-input";
    }

    @Override
    public String title() {
        return "Invalid input";
    }
}
