package dev.rayscale.events.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The fast reading of instants gives exactly what {@link Instant#parse} gives, and leaves every other form to it. */
class IsoInstantTest {

    @Test
    void readsWhatInstantParseReadsForAnyUtcInstantAndFractionLength() {
        Random random = new Random(3);
        for (int i = 0; i < 20_000; i++) {
            Instant instant = Instant.ofEpochSecond(random.nextLong(0, 13_000_000_000L), random.nextInt(1_000_000_000));
            String text = instant.toString();
            int fraction = random.nextInt(10);
            String shortened = fraction == 0 ? text.substring(0, 19) + "Z"
                    : text.substring(0, 19) + "." + String.format("%09d", instant.getNano()).substring(0, fraction) + "Z";
            assertThat(IsoInstant.utc(text)).as(text).isEqualTo(Instant.parse(text));
            assertThat(IsoInstant.utc(shortened)).as(shortened).isEqualTo(Instant.parse(shortened));
        }
    }

    @Test
    void leavesOtherFormsToTheStandardParserAndItsErrors() {
        for (String other : new String[] {"2026-11-30T10:00:05+02:00", "2016-12-31T23:59:60Z", "2026-02-29T10:00:05Z", "2026-11-30T24:00:00Z",
                "2026-11-30 10:00:05Z", "2026-11-30T10:00:05.Z", "2026-11-30T10:00:05.1234567890Z", "+2026-11-30T10:00:05Z", "2026-1a-30T10:00:05Z"}) {
            assertThat(IsoInstant.utc(other)).as(other).isNull();
        }
        assertThat(IsoInstant.parse("2026-11-30T10:00:05+02:00")).isEqualTo(Instant.parse("2026-11-30T08:00:05Z"));
        assertThatThrownBy(() -> IsoInstant.parse("2026-02-29T10:00:05Z")).isInstanceOf(DateTimeParseException.class);
    }

    @Test
    void theEventMapperReadsInstantsThroughIt() throws Exception {
        var mapper = EventJson.mapper();
        assertThat(mapper.readValue("\"2026-11-30T10:00:05.5Z\"", Instant.class)).isEqualTo(Instant.parse("2026-11-30T10:00:05.500Z"));
        assertThat(mapper.readValue("\"2026-11-30T10:00:05+01:00\"", Instant.class)).isEqualTo(Instant.parse("2026-11-30T09:00:05Z"));
        assertThat(mapper.readValue("1764496805", Instant.class)).isEqualTo(Instant.ofEpochSecond(1_764_496_805L));
        assertThatThrownBy(() -> mapper.readValue("\"2026-02-30T10:00:05Z\"", Instant.class)).hasMessageContaining("2026-02-30");
    }
}
