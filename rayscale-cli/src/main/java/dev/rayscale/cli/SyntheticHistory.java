package dev.rayscale.cli;

import dev.rayscale.audit.FileRecords;
import dev.rayscale.audit.Read;
import dev.rayscale.audit.Recorded;
import dev.rayscale.audit.EventReader;
import dev.rayscale.audit.Selection;
import dev.rayscale.events.ActuationResult;
import dev.rayscale.events.CloudEventHeaders;
import dev.rayscale.events.ClusterRef;
import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.EventType;
import dev.rayscale.events.RayscaleEvent;
import dev.rayscale.events.ScaleDecision;
import dev.rayscale.events.codec.EventCodec;
import dev.rayscale.planner.core.Planner;
import dev.rayscale.planner.core.PlannerSettings;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * A long history of many clusters for the audit benchmark, made from the golden walk-through recording:
 * each cluster lives the recorded run again and again, its snapshots renamed and moved in time, its
 * decisions planned afresh by this build's planner (so that a replay finds them identical), its results
 * answering them. Records come in time order, clusters interleaved, as a broker's topics would hold them.
 */
final class SyntheticHistory {

    private static final String TEMPLATE = "dev/rayscale/audit/golden/walkthrough.events.jsonl.gz";
    private static final Duration BETWEEN_RUNS = Duration.ofSeconds(5);

    private record Step(RayscaleEvent event, long offsetMillis) {
    }

    private final List<Step> steps = new ArrayList<>();
    private final long spanMillis;
    private final String version;

    private SyntheticHistory(String version) throws IOException {
        this.version = version;
        Path copy = Files.createTempFile("rayscale-template", ".jsonl.gz");
        try (InputStream in = SyntheticHistory.class.getClassLoader().getResourceAsStream(TEMPLATE)) {
            Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
        }
        EventReader reader = new EventReader(true);
        List<Recorded> records = new ArrayList<>();
        new FileRecords(copy, Selection.ALL).forEach(records::add);
        Files.delete(copy);
        long first = records.get(0).timestamp();
        for (Recorded record : records) {
            Read read = reader.read(record);
            if (read instanceof Read.Snapshot snapshot) {
                steps.add(new Step(snapshot.full(), record.timestamp() - first));
            } else if (read instanceof Read.Event event) {
                steps.add(new Step(event.event(), record.timestamp() - first));
            }
        }
        this.spanMillis = steps.get(steps.size() - 1).offsetMillis() + BETWEEN_RUNS.toMillis();
    }

    static SyntheticHistory fromTemplate(String version) throws IOException {
        return new SyntheticHistory(version);
    }

    /** Writes about {@code events} records of {@code clusters} clusters, starting at {@code start}; returns how many. */
    long write(int clusters, long events, Instant start, Consumer<Recorded> sink) {
        Map<String, Planner> planners = new HashMap<>();
        long written = 0;
        for (int run = 0; written < events; run++) {
            long runStart = start.toEpochMilli() + run * spanMillis;
            Duration shift = Duration.ofMillis(runStart - steps.get(0).event().time().toEpochMilli());
            List<Map<String, ClusterSnapshot>> snapshots = new ArrayList<>();
            List<Map<String, String>> decisionIds = new ArrayList<>();
            for (int cluster = 0; cluster < clusters; cluster++) {
                snapshots.add(new HashMap<>());
                decisionIds.add(new HashMap<>());
            }
            for (Step step : steps) {
                for (int cluster = 0; cluster < clusters && written < events; cluster++) {
                    ClusterRef ref = new ClusterRef(String.format("bench-%04d", cluster), "raycluster", null);
                    RayscaleEvent event = moved(step.event(), ref, shift, snapshots.get(cluster), decisionIds.get(cluster), planners);
                    sink.accept(record(event, runStart + step.offsetMillis()));
                    written++;
                }
            }
        }
        return written;
    }

    private RayscaleEvent moved(RayscaleEvent event, ClusterRef ref, Duration shift, Map<String, ClusterSnapshot> snapshots,
            Map<String, String> decisionIds, Map<String, Planner> planners) {
        if (event instanceof ClusterSnapshot template) {
            Instant observedAt = template.observedAt().plus(shift);
            ClusterSnapshot snapshot = moved(template, ref, observedAt.toEpochMilli(), observedAt);
            snapshots.put(template.id(), snapshot);
            return snapshot;
        }
        if (event instanceof ScaleDecision template) {
            PlannerSettings settings = PlannerSettings.of(template.planner().defaults(), version);
            ScaleDecision decision = planners.computeIfAbsent(settings.toString(), key -> new Planner(settings))
                    .plan(snapshots.get(template.snapshotId()));
            decisionIds.put(template.id(), decision.id());
            return decision;
        }
        ActuationResult template = (ActuationResult) event;
        String decisionId = decisionIds.get(template.decisionId());
        return new ActuationResult(template.schemaVersion(), decisionId + "-result", ref, decisionId,
                snapshots.get(template.snapshotId()).id(),
                template.outcome(), template.reason(), template.cause(), template.resourceVersionBefore(), template.resourceVersionAfter(), template.groups(),
                template.receivedAt().plus(shift), template.completedAt().plus(shift), template.attempts(), template.dryRun());
    }

    /** The snapshot as if taken of {@code ref} at {@code observedAt}, as its {@code sequence}th: all else as it was. */
    static ClusterSnapshot moved(ClusterSnapshot template, ClusterRef ref, long sequence, Instant observedAt) {
        return new ClusterSnapshot(template.schemaVersion(), ref.id() + "@" + sequence, ref, sequence, observedAt, template.sources(),
                template.policy(), template.headGroup(), template.workerGroups(), template.nodes(), template.pendingPods(), template.demand(),
                template.versions());
    }

    /** The event as a recorded record of its topic, written at {@code timestamp}, with the headers the services write. */
    static Recorded record(RayscaleEvent event, long timestamp) {
        EventType<?> type = event instanceof ClusterSnapshot ? EventType.SNAPSHOT : event instanceof ScaleDecision ? EventType.DECISION
                : EventType.ACTUATION;
        RecordHeaders headers = new RecordHeaders();
        CloudEventHeaders.addIfAbsent(headers, type, event, "//rayscale.dev/bench");
        return new Recorded(type.topic(), 0, 0, 0, timestamp, event.cluster().id(), headers, encode(event), null);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static byte[] encode(RayscaleEvent event) {
        EventCodec codec = event instanceof ClusterSnapshot ? EventCodec.SNAPSHOTS : event instanceof ScaleDecision ? EventCodec.DECISIONS
                : EventCodec.ACTUATIONS;
        return codec.encode(event);
    }
}
