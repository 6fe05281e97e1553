package dev.rayscale.fences;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class PureCoreFenceTest {

    private static Path testClasses() throws URISyntaxException {
        return Path.of(PureCoreFenceTest.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    @Test
    void aCoreToldTheTimeAndReturningDataPasses() throws URISyntaxException {
        assertThat(PureCoreFence.check(testClasses(), "dev.rayscale.fences.samples.pure")).isEmpty();
    }

    @Test
    void theClockFilesAndRandomnessAreEachReportedWithWhereTheyAreUsed() throws URISyntaxException {
        List<String> violations = PureCoreFence.check(testClasses(), "dev.rayscale.fences.samples.impure");

        assertThat(violations).anySatisfy(line -> assertThat(line).contains("ReadsTheClock.now()").contains("Instant.now()"));
        assertThat(violations).anySatisfy(line -> assertThat(line).contains("ReadsAFile").contains("java.nio.file.Files"));
        assertThat(violations).anySatisfy(line -> assertThat(line).contains("ReadsAFile").contains("java.io.IOException"));
        assertThat(violations).anySatisfy(line -> assertThat(line).contains("RollsADie.id()").contains("UUID.randomUUID()"));
    }

    @Test
    void aFencePointedAtNothingFailsRatherThanPassingEmpty() throws URISyntaxException {
        assertThat(PureCoreFence.check(testClasses(), "dev.rayscale.nowhere")).singleElement().asString().contains("no classes");
        assertThatThrownBy(() -> PureCoreFence.main(new String[] {testClasses().toString(), "dev.rayscale.fences.samples.impure"}))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("reaches outside its fence");
    }
}
