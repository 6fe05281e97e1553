package dev.rayscale.audit;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads {@code --from}/{@code --to}: an ISO-8601 instant, date-time or date (UTC unless it says), or a time back from now like {@code -2h}. */
public final class Times {

    private static final Pattern RELATIVE = Pattern.compile("-(\\d+)([smhd])");

    private Times() {
    }

    public static Instant parse(String text, Instant now) {
        String value = text.trim();
        Matcher relative = RELATIVE.matcher(value);
        if (relative.matches()) {
            long amount = Long.parseLong(relative.group(1));
            Duration back = switch (relative.group(2)) {
                case "s" -> Duration.ofSeconds(amount);
                case "m" -> Duration.ofMinutes(amount);
                case "h" -> Duration.ofHours(amount);
                default -> Duration.ofDays(amount);
            };
            return now.minus(back);
        }
        try {
            return OffsetDateTime.parse(value).toInstant();
        } catch (DateTimeParseException notWithOffset) {
            // next form
        }
        try {
            return LocalDateTime.parse(value).toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException notLocal) {
            // next form
        }
        try {
            return LocalDate.parse(value).atStartOfDay().toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException notADate) {
            throw new IllegalArgumentException("'" + text + "' is neither an ISO-8601 time (2026-11-30T02:10:00Z, 2026-11-30) "
                    + "nor a time back from now (-90s, -30m, -2h, -7d)");
        }
    }
}
