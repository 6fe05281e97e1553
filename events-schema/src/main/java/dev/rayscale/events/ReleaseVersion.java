package dev.rayscale.events;

import java.util.Comparator;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A release number as Ray and KubeRay write theirs ({@code 2.52.0}, {@code v1.6.0}, {@code 2.9.3rc1}, an image tag such as
 * {@code 2.41.0-py311-gpu}): the major, minor and patch numbers at its start. Anything after them (a pre-release, a Python
 * or CUDA flavour) is not compared: a {@code 2.10.0rc1} counts as 2.10.0.
 */
public record ReleaseVersion(int major, int minor, int patch) implements Comparable<ReleaseVersion> {

    private static final Pattern LEADING = Pattern.compile("^v?(\\d{1,4})\\.(\\d{1,4})(?:\\.(\\d{1,4}))?(?!\\d)");
    private static final Comparator<ReleaseVersion> ORDER = Comparator.comparingInt(ReleaseVersion::major)
            .thenComparingInt(ReleaseVersion::minor).thenComparingInt(ReleaseVersion::patch);

    public ReleaseVersion {
        Fields.notNegative(major, "major");
        Fields.notNegative(minor, "minor");
        Fields.notNegative(patch, "patch");
    }

    /** The version at the start of {@code text}; empty if it does not start with one (a {@code latest} or {@code nightly} tag). */
    public static Optional<ReleaseVersion> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        Matcher matcher = LEADING.matcher(text.trim());
        if (!matcher.find()) {
            return Optional.empty();
        }
        return Optional.of(new ReleaseVersion(Integer.parseInt(matcher.group(1)), Integer.parseInt(matcher.group(2)),
                matcher.group(3) == null ? 0 : Integer.parseInt(matcher.group(3))));
    }

    public static ReleaseVersion of(int major, int minor) {
        return new ReleaseVersion(major, minor, 0);
    }

    public boolean atLeast(ReleaseVersion other) {
        return compareTo(other) >= 0;
    }

    @Override
    public int compareTo(ReleaseVersion other) {
        return ORDER.compare(this, other);
    }

    @Override
    public String toString() {
        return major + "." + minor + "." + patch;
    }
}
