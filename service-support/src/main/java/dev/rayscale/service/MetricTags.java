package dev.rayscale.service;

import java.util.Locale;

/** Tag values written the one way every Rayscale meter writes them, so that dashboards and alerts can match them. */
public final class MetricTags {

    private MetricTags() {
    }

    /** An enum constant as a tag value: {@code RAYCLUSTER_CHANGED} becomes {@code raycluster_changed}. */
    public static String of(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }
}
