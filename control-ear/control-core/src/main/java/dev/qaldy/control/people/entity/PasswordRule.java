package dev.qaldy.control.people.entity;

import dev.qaldy.control.platform.control.InvalidInput;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import me.gosimple.nbvcxz.resources.DictionaryUtil;

/**
 * The rule for new passwords: 10 to 128 characters, and not one of the passwords found most often
 * in breaches (issue 20: "password123" was accepted). The list is nbvcxz's bundled one (100,000
 * passwords, compared ignoring case), read once on first use; only its entries of 10 characters or
 * more are kept, since shorter ones are refused by length (about 8,000 strings).
 */
public final class PasswordRule {

    public static final int MIN_LENGTH = 10;
    public static final int MAX_LENGTH = 128;

    private PasswordRule() {
    }

    /** Loaded on first use (about 0.1 s), then kept for the process's life. */
    private static final class Common {
        static final Set<String> PASSWORDS = DictionaryUtil.loadRankedDictionary(DictionaryUtil.passwords).keySet().stream()
                .filter(p -> p.codePointCount(0, p.length()) >= MIN_LENGTH)
                .map(p -> p.toLowerCase(Locale.ROOT))
                .collect(Collectors.toUnmodifiableSet());
    }

    /**
     * @throws InvalidInput when the password is shorter than 10 or longer than 128 characters, or
     *                      is on the list of common passwords
     */
    public static void check(String password) {
        int length = password == null ? 0 : password.codePointCount(0, password.length());
        if (length < MIN_LENGTH || length > MAX_LENGTH) {
            throw new InvalidInput("password must be " + MIN_LENGTH + " to " + MAX_LENGTH + " characters long");
        }
        if (isCommon(password)) {
            throw new InvalidInput("This password is one of the most common ones, so it would be guessed first."
                    + " Choose another, for example a few words that do not belong together.");
        }
    }

    /** True when {@code password} (ignoring case) is on the list of common passwords. */
    static boolean isCommon(String password) {
        return Common.PASSWORDS.contains(password.toLowerCase(Locale.ROOT));
    }
}
