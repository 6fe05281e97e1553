package dev.rayscale.fences;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The fence around a pure core, run by the build on a module's compiled classes (so that skipping tests does not
 * skip it): the core's classes may not depend on a framework or client (Quarkus, SmallRye, CDI, Vert.x, Kafka, gRPC,
 * fabric8's client: its model classes are data and allowed), on files or the network ({@code java.io},
 * {@code java.nio.file}, {@code java.net}), on the clock, or on randomness. What the core needs of those is passed in.
 *
 * <p>Arguments: the classes directory, then the core's packages (each with its subpackages; one argument may name
 * several, comma-separated). Fails with every violation listed.
 */
public final class PureCoreFence {

    static final List<String> FORBIDDEN_PACKAGES = List.of("io.quarkus..", "io.smallrye..", "jakarta.enterprise..",
            "jakarta.inject..", "io.vertx..", "org.apache.kafka..", "io.grpc..", "io.fabric8.kubernetes.client..", "java.io..",
            "java.nio.file..", "java.net..");

    private PureCoreFence() {
    }

    public static void main(String[] arguments) {
        if (arguments.length < 2) {
            throw new IllegalArgumentException("usage: PureCoreFence <classes directory> <core package>...");
        }
        String[] packages = Arrays.stream(arguments, 1, arguments.length).flatMap(names -> Arrays.stream(names.split(",")))
                .map(String::trim).filter(name -> !name.isEmpty()).toArray(String[]::new);
        List<String> violations = check(Path.of(arguments[0]), packages);
        if (!violations.isEmpty()) {
            throw new IllegalStateException("The pure core " + String.join(", ", packages)
                    + " reaches outside its fence (pass what it needs in instead):\n" + String.join("\n", violations));
        }
        System.out.println("[fence] " + String.join(", ", packages) + ": no I/O, framework, clock or randomness");
    }

    /** Every violation of the fence by the classes of {@code packages} under {@code classes}; empty when there is none. */
    public static List<String> check(Path classes, String... packages) {
        String[] cores = Arrays.stream(packages).map(name -> name + "..").toArray(String[]::new);
        JavaClasses imported = new ClassFileImporter().importPath(classes).that(
                JavaClass.Predicates.resideInAnyPackage(cores));
        if (imported.isEmpty()) {
            return List.of("no classes of " + String.join(", ", packages) + " under " + classes + ": is the fence pointed at the core?");
        }
        return rules().stream().map(rule -> rule.evaluate(imported)).filter(EvaluationResult::hasViolation)
                .flatMap(result -> result.getFailureReport().getDetails().stream()).collect(Collectors.toList());
    }

    private static List<ArchRule> rules() {
        return List.of(
                noClasses().should().dependOnClassesThat().resideInAnyPackage(FORBIDDEN_PACKAGES.toArray(String[]::new))
                        .because("a core does no I/O and knows no framework"),
                noClasses().should().callMethod(System.class, "currentTimeMillis")
                        .orShould().callMethod(System.class, "nanoTime")
                        .orShould().callMethod(Instant.class, "now")
                        .orShould().callMethod(LocalDate.class, "now")
                        .orShould().callMethod(LocalDateTime.class, "now")
                        .orShould().callMethod(OffsetDateTime.class, "now")
                        .orShould().callMethod(ZonedDateTime.class, "now")
                        .orShould().dependOnClassesThat().areAssignableTo(Clock.class)
                        .because("a core is told the time, so that replaying it gives the same answer"),
                noClasses().should().dependOnClassesThat().areAssignableTo(Random.class)
                        .orShould().callMethod(Math.class, "random")
                        .orShould().callMethod(UUID.class, "randomUUID")
                        .because("a core is deterministic: the same input gives the same output"));
    }
}
