package dev.qaldy.control.people.entity;

import dev.qaldy.control.platform.control.InvalidInput;

/** The rule for new passwords: 10 to 128 characters. */
public final class PasswordRule {

    public static final int MIN_LENGTH = 10;
    public static final int MAX_LENGTH = 128;

    private PasswordRule() {
    }

    /** @throws InvalidInput when the password is shorter than 10 or longer than 128 characters */
    public static void check(String password) {
        int length = password == null ? 0 : password.codePointCount(0, password.length());
        if (length < MIN_LENGTH || length > MAX_LENGTH) {
            throw new InvalidInput("password must be " + MIN_LENGTH + " to " + MAX_LENGTH + " characters long");
        }
    }
}
