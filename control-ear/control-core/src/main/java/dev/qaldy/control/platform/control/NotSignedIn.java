package dev.qaldy.control.platform.control;

/** No valid credentials: missing, forged or expired session token, wrong password, or a bad service token (HTTP 401). */
public class NotSignedIn extends QaldyException {

    private static final long serialVersionUID = 1L;

    public NotSignedIn(String detail) {
        super(detail);
    }

    @Override
    public int status() {
        return 401;
    }

    @Override
    protected String slug() {
        return "not-signed-in";
    }

    @Override
    public String title() {
        return "Not signed in";
    }
}
