package dev.rayscale.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rayscale.events.codec.EventCodec;
import dev.rayscale.events.codec.EventSchemas;
import dev.rayscale.events.codec.InvalidEventException;
import dev.rayscale.events.codec.UnsupportedSchemaVersionException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class EventCodecTest {

    private static ObjectNode walkthrough() {
        return (ObjectNode) Examples.document(EventType.SNAPSHOT, "walkthrough").deepCopy();
    }

    @Test
    void warmingUpReadsEachTypesShippedWalkthroughExample() {
        assertThat(EventCodec.SNAPSHOTS.warmUp()).isEqualTo(EventCodec.SNAPSHOTS.decode(Examples.document(EventType.SNAPSHOT, "walkthrough")));
        assertThat(EventCodec.DECISIONS.warmUp()).isEqualTo(EventCodec.DECISIONS.decode(Examples.document(EventType.DECISION, "walkthrough")));
        assertThat(EventCodec.ACTUATIONS.warmUp()).isEqualTo(EventCodec.ACTUATIONS.decode(Examples.document(EventType.ACTUATION, "walkthrough")));
    }

    @Test
    void aWriterWarmsUpOnTheExampleWithoutTheValidatorWhichIsCompiledOnlyWhenAReaderFirstNeedsIt() {
        AtomicInteger schemasRead = new AtomicInteger();
        EventCodec<ClusterSnapshot> codec = new EventCodec<>(EventType.SNAPSHOT, new EventSchemas(schema -> {
            schemasRead.incrementAndGet();
            return schema;
        }));

        assertThat(codec.warmUpWriting()).isEqualTo(EventCodec.SNAPSHOTS.decode(Examples.document(EventType.SNAPSHOT, "walkthrough")));
        assertThat(schemasRead).as("schema files read for a writer").hasValue(0);

        codec.warmUp();
        codec.warmUp();
        assertThat(schemasRead).as("schema files read, once, for a reader").hasValue(EventSchemas.FILES.size());
    }

    @Test
    void malformedJsonIsAnInvalidEventNamingTheDocument() {
        assertThatThrownBy(() -> EventCodec.SNAPSHOTS.decode("{\"schemaVersion\": 1, \"id\": "))
                .isExactlyInstanceOf(InvalidEventException.class)
                .hasMessageStartingWith("invalid ClusterSnapshot: $: not valid JSON")
                .satisfies(e -> assertThat(((InvalidEventException) e).field()).isEqualTo("$"));
    }

    @Test
    void unknownSchemaVersionIsItsOwnRecognisableError() {
        ObjectNode document = walkthrough().put("schemaVersion", 2);

        assertThatThrownBy(() -> EventCodec.SNAPSHOTS.decode(document.toString()))
                .isInstanceOfSatisfying(UnsupportedSchemaVersionException.class, e -> {
                    assertThat(e.version()).isEqualTo(2);
                    assertThat(e.supportedVersion()).isEqualTo(1);
                    assertThat(e.field()).isEqualTo("$.schemaVersion");
                })
                .hasMessageContaining("schema version 2 is not supported");
    }

    @Test
    void missingSchemaVersionIsInvalidNotUnsupported() {
        ObjectNode document = walkthrough();
        document.remove("schemaVersion");

        assertThatThrownBy(() -> EventCodec.SNAPSHOTS.decode(document.toString()))
                .isExactlyInstanceOf(InvalidEventException.class)
                .hasMessageContaining("$.schemaVersion: required property is missing");
    }

    @Test
    void wrongTypeNamesTheFieldAndTheProblem() {
        ObjectNode document = walkthrough();
        ((ObjectNode) document.withArray("workerGroups").get(0)).put("maxReplicas", "twenty");

        assertThatThrownBy(() -> EventCodec.SNAPSHOTS.decode(document.toString()))
                .isInstanceOfSatisfying(InvalidEventException.class, e -> {
                    assertThat(e.field()).isEqualTo("$.workerGroups[0].maxReplicas");
                    assertThat(e.problem()).contains("string", "integer");
                });
    }

    @Test
    void missingRequiredFieldIsNamed() {
        ObjectNode document = walkthrough();
        ((ObjectNode) document.get("cluster")).remove("name");

        assertThatThrownBy(() -> EventCodec.SNAPSHOTS.decode(document.toString()))
                .isInstanceOfSatisfying(InvalidEventException.class,
                        e -> assertThat(e.field() + ": " + e.problem()).contains("$.cluster", "name"));
    }

    @Test
    void demandMissingWhileTheGcsWasReadIsRejected() {
        ObjectNode document = walkthrough();
        document.remove("demand");

        assertThatThrownBy(() -> EventCodec.SNAPSHOTS.decode(document.toString()))
                .isInstanceOfSatisfying(InvalidEventException.class, e -> assertThat(e.problem()).contains("demand"));
    }

    @Test
    void demandPresentWhileTheGcsWasUnavailableIsRejected() {
        ObjectNode document = (ObjectNode) Examples.document(EventType.SNAPSHOT, "gcs-unavailable").deepCopy();
        document.putObject("demand").putArray("tasks");
        document.withObject("demand").putArray("gangs");
        document.withObject("demand").putArray("constraints");

        assertThatThrownBy(() -> EventCodec.SNAPSHOTS.decode(document.toString())).isInstanceOf(InvalidEventException.class);
    }

    @Test
    void recordChecksBeyondTheSchemaAreReportedWithTheirField() {
        ObjectNode document = (ObjectNode) Examples.document(EventType.DECISION, "walkthrough").deepCopy();
        document.put("expiresAt", "2026-11-30T09:00:00Z");

        assertThatThrownBy(() -> EventCodec.DECISIONS.decode(document.toString()))
                .isInstanceOfSatisfying(InvalidEventException.class,
                        e -> assertThat(e.problem()).isEqualTo("expiresAt must not be before decidedAt"));
    }

    @Test
    void emptyRecordIsInvalid() {
        assertThatThrownBy(() -> EventCodec.DECISIONS.decode(new byte[0]))
                .isInstanceOf(InvalidEventException.class)
                .hasMessageContaining("empty");
    }

    @Test
    void jsonArrayIsNotAnEvent() {
        assertThatThrownBy(() -> EventCodec.ACTUATIONS.decode("[]"))
                .isInstanceOf(InvalidEventException.class)
                .hasMessageContaining("expected a JSON object");
    }

    @Test
    void fieldsAddedByANewerProducerAreIgnored() {
        ObjectNode document = walkthrough();
        document.put("addedLater", "by an additive change");
        ((ObjectNode) document.withArray("workerGroups").get(0)).put("rackAware", true);

        ClusterSnapshot snapshot = EventCodec.SNAPSHOTS.decode(document.toString());

        assertThat(snapshot.workerGroups().get(0).maxReplicas()).isEqualTo(20);
    }

    /** The schema calls the codes an open set: a newer planner's code is informational, read by strict and lenient readers alike. */
    @Test
    void aReasonCodeANewerPlannerWritesIsReadAsInformationalAndKept() {
        ObjectNode document = (ObjectNode) Examples.document(EventType.DECISION, "walkthrough").deepCopy();
        ((ObjectNode) document.withArray("codedReasons").get(0)).put("code", "QUOTA_AWARE_PACKING");

        for (ScaleDecision decision : List.of(EventCodec.DECISIONS.decode(document.toString()),
                EventCodec.DECISIONS.bind(document.toString().getBytes(StandardCharsets.UTF_8)))) {
            ReasonCode code = decision.codedReasons().get(0).code();
            assertThat(code.name()).isEqualTo("QUOTA_AWARE_PACKING");
            assertThat(code.known()).isFalse();
            assertThat(EventCodec.DECISIONS.toTree(decision).at("/codedReasons/0/code").asText()).isEqualTo("QUOTA_AWARE_PACKING");
        }
        assertThat(EventCodec.DECISIONS.decode(Examples.document(EventType.DECISION, "walkthrough").toString()).codedReasons().get(0)
                .code().known()).isTrue();
    }

    @Test
    void aReasonCodeThatIsNoCodeIsInvalid() {
        ObjectNode document = (ObjectNode) Examples.document(EventType.DECISION, "walkthrough").deepCopy();
        ((ObjectNode) document.withArray("codedReasons").get(0)).put("code", "\u001b[2J not a code");

        assertThatThrownBy(() -> EventCodec.DECISIONS.decode(document.toString())).isInstanceOf(InvalidEventException.class)
                .hasMessageContaining("codedReasons");
    }

    @Test
    void decodesTheWalkthroughExactly() {
        ClusterSnapshot snapshot = EventCodec.SNAPSHOTS.decode(walkthrough().toString());

        assertThat(snapshot.cluster().id()).isEqualTo("default/raycluster-autoscaler");
        assertThat(snapshot.headGroup().resources().get("CPU")).isEqualTo(Quantity.ZERO);
        assertThat(snapshot.workerGroups()).singleElement().satisfies(group -> {
            assertThat(group.resources()).isEqualTo(Resources.of("CPU", "1", "memory", "1073741824"));
            assertThat(group.maxReplicas()).isEqualTo(20);
        });
        assertThat(snapshot.demand().tasks()).containsExactly(new TaskDemand(Resources.of("CPU", "1"), 15));
        assertThat(snapshot.hasRayState()).isTrue();
    }

    @Test
    void unavailableGcsDecodesAsUnknownRayState() {
        ClusterSnapshot snapshot = EventCodec.SNAPSHOTS.decode(Examples.document(EventType.SNAPSHOT, "gcs-unavailable").toString());

        assertThat(snapshot.hasRayState()).isFalse();
        assertThat(snapshot.demand()).isNull();
        assertThat(snapshot.nodes()).isNull();
        assertThat(snapshot.sources().gcs().error()).contains("DEADLINE_EXCEEDED");
    }

    @Test
    void invalidNestedValueIsLocatedInTheArray() {
        ObjectNode document = walkthrough();
        ArrayNode tasks = (ArrayNode) document.get("demand").get("tasks");
        ((ObjectNode) tasks.get(0)).put("count", 0);

        assertThatThrownBy(() -> EventCodec.SNAPSHOTS.decode(document.toString()))
                .isInstanceOfSatisfying(InvalidEventException.class,
                        e -> assertThat(e.field()).isEqualTo("$.demand.tasks[0].count"));
    }
}
