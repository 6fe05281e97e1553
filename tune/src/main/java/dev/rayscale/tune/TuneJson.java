package dev.rayscale.tune;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;

/** A {@link TuneReport} as JSON, for a notebook or a dashboard: the same figures as the text, under stable names. */
public final class TuneJson {

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private TuneJson() {
    }

    public static void write(TuneReport report, Path file) throws IOException {
        MAPPER.writeValue(file.toFile(), tree(report));
    }

    static ObjectNode tree(TuneReport report) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("cluster", report.cluster());
        root.put("seconds", report.seconds());
        root.put("clockRate", report.clockRate());
        root.put("snapshotIntervalSeconds", report.resolution());
        ObjectNode calibration = root.putObject("calibration");
        calibration.put("errorPct", report.calibrationErrorPct());
        calibration.put("limitPct", Calibration.LIMIT * 100);
        calibration.put("durationScale", report.calibration().durationScale());
        calibration.put("startupScale", report.calibration().startupScale());
        calibration.put("replays", report.calibration().replays());
        calibration.set("recorded", figures(report.calibration().recorded()));
        calibration.set("replayed", figures(report.calibration().replayed()));
        ObjectNode errors = calibration.putObject("errorsPct");
        report.calibration().errors().forEach((name, error) -> errors.put(name, error * 100));
        Reconstruction workload = report.calibration().reconstruction();
        ObjectNode reconstructed = root.putObject("workload");
        reconstructed.put("tasks", workload.tasks());
        reconstructed.put("unseenStarts", workload.unseenStarts());
        reconstructed.put("podStartSeconds", workload.workload().podStartSeconds());
        ObjectNode durations = reconstructed.putObject("durationSeconds");
        workload.durations().forEach(durations::put);
        ArrayNode notes = reconstructed.putArray("notes");
        workload.notes().forEach(notes::add);
        ArrayNode policies = root.putArray("policies");
        policies.add(outcome(report.baseline(), report, true));
        report.outcomes().forEach(outcome -> policies.add(outcome(outcome, report, false)));
        root.put("objective", report.objective().describe());
        if (report.recommended() != null) {
            ObjectNode recommended = root.putObject("recommended");
            recommended.put("policy", report.recommended().policy().describe());
            recommended.put("costChangePct", report.costChangePct());
            recommended.put("waitP95ChangeSeconds", report.waitP95ChangeSeconds());
        } else {
            root.put("refusal", report.refusal());
        }
        root.put("summary", report.lastLine());
        return root;
    }

    private static ObjectNode outcome(Outcome outcome, TuneReport report, boolean recorded) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("policy", recorded ? "recorded" : outcome.policy().describe());
        node.put("onFront", report.front().contains(outcome));
        node.set("figures", figures(outcome.figures()));
        return node;
    }

    private static ObjectNode figures(Figures figures) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("workerSeconds", figures.workerSeconds());
        node.put("cost", figures.cost());
        node.put("waitP50Seconds", figures.waitP50());
        node.put("waitP95Seconds", figures.waitP95());
        node.put("waitMaxSeconds", figures.waitMax());
        node.put("tasks", figures.tasks());
        node.put("coldStarts", figures.coldStarts());
        node.put("scaleEvents", figures.scaleEvents());
        return node;
    }
}
