package dev.qaldy.runtime.platform;

/** A request the runtime host refuses to interpret (bad app name, unsafe path, bad query). */
public class BadRequestException extends ServingException {

    private static final long serialVersionUID = 1L;
    private final String detail;

    public BadRequestException(String detail) {
        super(detail);
        this.detail = detail;
    }

    @Override
    public int status() {
        return 400;
    }

    @Override
    public String type() {
        return "bad-request";
    }

    @Override
    public String title() {
        return "Bad request";
    }

    @Override
    public String detail() {
        return detail;
    }
}
