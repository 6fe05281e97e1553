package dev.rayscale.events;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/** Shared checks for the event records' compact constructors: required fields and immutable copies. */
final class Fields {

    private Fields() {
    }

    static <T> T required(T value, String field) {
        return Objects.requireNonNull(value, () -> field + " is required");
    }

    static String requiredText(String value, String field) {
        if (required(value, field).isBlank()) {
            throw new IllegalArgumentException(field + " must not be blank");
        }
        return value;
    }

    /** An absent list reads as empty; the copy keeps the record immutable. */
    static <T> List<T> list(List<T> values) {
        return values == null ? List.of() : List.copyOf(values);
    }

    /** An absent map reads as empty; the copy is sorted so that equal maps print identically. */
    static Map<String, String> labels(Map<String, String> labels) {
        return labels == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(labels));
    }

    static long notNegative(long value, String field) {
        if (value < 0) {
            throw new IllegalArgumentException(field + " must not be negative, was " + value);
        }
        return value;
    }

    static long positive(long value, String field) {
        if (value <= 0) {
            throw new IllegalArgumentException(field + " must be positive, was " + value);
        }
        return value;
    }
}
