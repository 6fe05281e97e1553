package dev.rayscale.planner.core;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The planner's decision logic is pure: it must not touch I/O frameworks nor read the clock. (Quarkus,
 * Kafka and fabric8 are not even on this module's classpath; this also guards against a later
 * dependency sneaking them in.)
 */
class ArchitectureTest {

    private static final JavaClasses PLANNER = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.rayscale.planner");

    @Test
    void importsNoFrameworks() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage(
                        "io.quarkus..", "org.apache.kafka..", "io.fabric8..", "io.smallrye..", "jakarta..", "io.grpc..")
                .check(PLANNER);
    }

    @Test
    void readsNoClock() {
        noClasses().should().callMethod(System.class, "currentTimeMillis")
                .orShould().callMethod(System.class, "nanoTime")
                .orShould().callMethod(java.time.Instant.class, "now")
                .orShould().dependOnClassesThat().areAssignableTo(java.time.Clock.class)
                .check(PLANNER);
    }

    @Test
    void usesNoRandomness() {
        noClasses().should().dependOnClassesThat().areAssignableTo(java.util.Random.class)
                .orShould().callMethod(Math.class, "random")
                .check(PLANNER);
    }
}
