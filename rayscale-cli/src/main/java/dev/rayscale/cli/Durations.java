package dev.rayscale.cli;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/** Reads durations as the services' settings write them: {@code 250ms}, {@code 30s}, {@code 5m}, {@code 1h}. */
final class Durations {

    private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h)");

    private Durations() {
    }

    static Duration parse(String text, CommandLine commandLine, String option) {
        Matcher matcher = DURATION.matcher(text.trim());
        if (!matcher.matches()) {
            throw new ParameterException(commandLine, option + " '" + text + "' is not a duration like 250ms, 30s, 5m or 1h");
        }
        long amount = Long.parseLong(matcher.group(1));
        return switch (matcher.group(2)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            default -> Duration.ofHours(amount);
        };
    }
}
