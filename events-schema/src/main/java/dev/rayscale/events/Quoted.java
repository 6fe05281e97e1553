package dev.rayscale.events;

/**
 * A value quoted in an error, cut short: what a tenant writes (a quantity, an annotation) reaches Warning Events, logs and
 * dead-letter reasons, and a ten-megabyte value must not become a ten-megabyte Event.
 */
public final class Quoted {

    /** How many characters of a value an error quotes. */
    static final int LENGTH = 32;

    private Quoted() {
    }

    /** {@code text} in quotes, cut to its first 32 characters if longer (with how long it was). */
    public static String of(String text) {
        if (text == null) {
            return "null";
        }
        return text.length() <= LENGTH ? "'" + text + "'" : "'" + text.substring(0, LENGTH) + "...' (" + text.length() + " characters)";
    }
}
