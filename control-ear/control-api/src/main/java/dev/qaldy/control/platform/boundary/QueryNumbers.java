package dev.qaldy.control.platform.boundary;

import dev.qaldy.control.platform.control.InvalidInput;

/** Whole numbers from query parameters (cursors, page sizes), with the API's one error text. */
public final class QueryNumbers {

    private QueryNumbers() {
    }

    /**
     * {@code value} as a whole number ≥ 0.
     *
     * @param name  the parameter's name, for the error
     * @param value the parameter as sent (surrounding spaces allowed)
     * @throws InvalidInput (400) when it is not a whole number ≥ 0
     */
    public static long wholeNumber(String name, String value) {
        try {
            long n = Long.parseLong(value.trim());
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new InvalidInput(name + " must be a whole number ≥ 0");
        }
    }

    /** {@link #wholeNumber(String, String)}, or {@code fallback} when the parameter is absent. */
    public static long wholeNumber(String name, String value, long fallback) {
        return value == null ? fallback : wholeNumber(name, value);
    }
}
