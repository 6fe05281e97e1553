package dev.rayscale.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.rayscale.demo.RayscaleServices;
import dev.rayscale.demo.RayscaleServices.Service;
import dev.rayscale.testsupport.TestKafka;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The class-data archive the build makes of each service's start-up (the parent pom's {@code class-data-archive}: a
 * training run that exits once warmed up) serves the service as the demo, the bench and these tests start it: the JVM
 * reads the service's classes from the archive instead of loading them from the jars. An archive the JVM refuses (made
 * by another JVM, or before the jars were rebuilt) would leave every class to the jars, and start-up a third slower.
 */
class ClassDataArchiveTest {

    /** What the JVM's class loading log ({@code -Xlog:class+load}) says of a class read from a dynamic archive. */
    private static final String FROM_THE_ARCHIVE = "source: shared objects file (top)";

    @ParameterizedTest
    @EnumSource(Service.class)
    void theServiceStartsOnTheClassesItsTrainingRunArchived(Service service) throws IOException {
        Path folder = Files.createTempDirectory("rayscale-class-data");
        Path classLog = folder.resolve("classes.log");
        // No API server listens on port 1: the collector and the actuator start without one (they are not ready, which
        // is not what this looks at), as their training run does.
        try (RayscaleServices services = new RayscaleServices(ClosedLoops.ROOT, folder, TestKafka.bootstrapServers(),
                "https://127.0.0.1:1", "class-data")) {
            services.launch(service, List.of("-Xlog:class+load=info:file=" + classLog), Map.of());
            await().atMost(Duration.ofSeconds(90)).until(() -> Files.readString(services.log(service)).contains(" started in "));
        }
        // Lambdas are spun at run time (their source is the class that defines them); every other class comes from a jar
        // or the archive. A few are not archived: those the training run loaded but never linked (an exception that was
        // not thrown) and those it never loaded.
        List<String> ownClasses = Files.readAllLines(classLog).stream()
                .filter(line -> line.contains(" dev.rayscale.") && !line.contains("$$Lambda")).toList();
        assertThat(ownClasses).as("Rayscale's classes the %s loaded", service).hasSizeGreaterThan(20);
        assertThat(ownClasses.stream().filter(line -> line.contains(FROM_THE_ARCHIVE)).count())
                .as("of those, read from the archive (%s)", ownClasses)
                .isGreaterThanOrEqualTo(ownClasses.size() * 8L / 10);
    }
}
