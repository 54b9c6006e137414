package dev.qaldy.control.schedules.entity;

import dev.qaldy.control.platform.control.InvalidInput;
import java.util.regex.Pattern;

/** The rule for job names: what {@code app.job('name', …)} registers in {@code server.js}. */
public final class JobName {

    /** 1 to 64 letters, digits, '-' or '_': it travels in a URL path to the runtime host. */
    public static final Pattern SHAPE = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    private JobName() {
    }

    /** @throws InvalidInput unless {@code job} is 1 to 64 letters, digits, '-' or '_' */
    public static String check(String job) {
        if (job == null || !SHAPE.matcher(job).matches()) {
            throw new InvalidInput("\"job\" must name a job handler of server.js (app.job('name', …)):"
                    + " 1 to 64 letters, digits, '-' or '_'");
        }
        return job;
    }
}
