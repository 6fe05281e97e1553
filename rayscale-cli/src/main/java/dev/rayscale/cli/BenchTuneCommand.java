package dev.rayscale.cli;

import dev.rayscale.audit.BuildInfo;
import dev.rayscale.audit.Exporter;
import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.codec.EventJson;
import dev.rayscale.planner.core.PlannerSettings;
import dev.rayscale.sim.Workload;
import dev.rayscale.tune.SimulatedRecording;
import java.io.IOException;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ./rayscale bench-tune}: {@code tune} on a long recording of a busy cluster, timed and measured. */
@Command(name = "bench-tune", mixinStandardHelpOptions = true,
        description = {"Records a busy cluster for DAYS of simulated time (a burst of short tasks every 90 s, a long batch every "
                + "30 min, a snapshot every 5 s) and writes it, and a week of it (the same days again, later), as export files. Then "
                + "runs, as a user would (processes of their own, the launcher's 256 MiB heap), ./rayscale tune on the recording "
                + "with one policy beside the recorded one, and ./rayscale tune --workload on the week (reading and reconstruction "
                + "only), and measures wall time, simulated seconds replayed per second and peak resident memory. Last line:",
            "  bench-tune: days=D snapshots=N tune_wall_s=.. replays=R replayed_s_per_s=.. tune_peak_rss_mib=.. calibration_error_pct=.. "
                + "week_snapshots=N week_read_wall_s=.. week_peak_rss_mib=.."})
public class BenchTuneCommand implements Callable<Integer> {

    private static final double BURST_EVERY = 90;
    private static final double BATCH_EVERY = 1800;

    @Option(names = "--days", defaultValue = "1", description = "Simulated days recorded. Default: ${DEFAULT-VALUE}.")
    double days;

    @Option(names = "--every", defaultValue = "5", description = "Seconds between two snapshots. Default: ${DEFAULT-VALUE}.")
    double every;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Path work = Home.work("bench-tune");
        Files.createDirectories(work);
        double seconds = days * 86_400;
        List<ClusterSnapshot> recorded = new ArrayList<>();
        long begun = System.nanoTime();
        SimulatedRecording.of(busy(seconds), seconds, every, PlannerSettings.defaults(BuildInfo.plannerVersion()), recorded::add);
        double recordedIn = (System.nanoTime() - begun) / 1e9;
        Path history = work.resolve("history.jsonl.gz");
        write(history, recorded, 1, seconds);
        int repeats = (int) Math.ceil(7 / days);
        Path week = work.resolve("week.jsonl.gz");
        write(week, recorded, repeats, seconds);
        out.printf(Locale.ROOT, "history: %d snapshots over %.0f simulated s, recorded in %.0f s (%.0f simulated s/s), %d MiB; a week of it: "
                + "%d snapshots, %d MiB%n", recorded.size(), seconds, recordedIn, seconds / recordedIn, Files.size(history) >> 20,
                recorded.size() * repeats, Files.size(week) >> 20);
        out.flush();
        Path report = work.resolve("history-tune.json");
        MeasuredRun tune = MeasuredRun.of(Home.root(), work, "history", List.of("tune", "--file", history.toString(), "--grid",
                "idleTimeoutSeconds=30", "--json", report.toString()));
        int replays = tune.exitCode() == 0 ? EventJson.mapper().readTree(report.toFile()).path("calibration").path("replays").asInt() + 1 : 0;
        out.printf(Locale.ROOT, "tune:            %6.0f s wall, peak RSS %4d MiB, exit %d: %s%n", tune.seconds(), tune.rssMiB(), tune.exitCode(),
                tune.lastLine());
        MeasuredRun read = MeasuredRun.of(Home.root(), work, "week", List.of("tune", "--file", week.toString(), "--workload",
                work.resolve("week-workload.yaml").toString()));
        out.printf(Locale.ROOT, "tune --workload: %6.0f s wall, peak RSS %4d MiB, exit %d: %s%n", read.seconds(), read.rssMiB(), read.exitCode(),
                read.lastLine());
        String error = tune.lastLine().replaceAll(".*calibration_error_pct=([0-9.]+).*", "$1");
        // The calibration's replays of the recorded policy and the policy's own, over the whole run (reading included).
        out.printf(Locale.ROOT, "bench-tune: days=%.2f snapshots=%d tune_wall_s=%.0f replays=%d replayed_s_per_s=%.0f tune_peak_rss_mib=%d "
                + "calibration_error_pct=%s week_snapshots=%d week_read_wall_s=%.0f week_peak_rss_mib=%d%n", days, recorded.size(),
                tune.seconds(), replays, replays * seconds / tune.seconds(), tune.rssMiB(), error, recorded.size() * repeats, read.seconds(),
                read.rssMiB());
        out.flush();
        return tune.exitCode() == 0 && read.exitCode() == 0 ? 0 : 1;
    }

    /** The snapshots, {@code repeats} times over, each time {@code span} seconds later, as an export file. */
    private static void write(Path file, List<ClusterSnapshot> snapshots, int repeats, double span) throws IOException {
        try (Exporter exporter = new Exporter(file)) {
            for (int repeat = 0; repeat < repeats; repeat++) {
                Duration later = Duration.ofMillis((long) (repeat * span * 1000));
                for (ClusterSnapshot snapshot : snapshots) {
                    ClusterSnapshot moved = SyntheticHistory.moved(snapshot, snapshot.cluster(), snapshot.sequence() + repeat * (long) snapshots.size(),
                            snapshot.observedAt().plus(later));
                    exporter.write(SyntheticHistory.record(moved, moved.observedAt().toEpochMilli()));
                }
            }
        }
    }

    /** One group of 1-CPU pods that take 20 s to start: 4 tasks of 20 s every 90 s, and 24 tasks of 2 min every half hour. */
    private static Workload busy(double seconds) {
        List<Workload.Event> events = new ArrayList<>();
        Map<String, BigDecimal> cpu = Map.of("CPU", BigDecimal.ONE);
        for (double at = 10; at < seconds; at += BURST_EVERY) {
            events.add(tasks(at, 4, cpu, 20));
        }
        for (double at = 600; at < seconds; at += BATCH_EVERY) {
            events.add(tasks(at, 24, cpu, 120));
        }
        events.sort((a, b) -> Double.compare(a.at(), b.at()));
        Workload.Group workers = new Workload.Group("workers", Map.of("CPU", BigDecimal.ONE, "memory", BigDecimal.valueOf(1L << 30)), 0, 40,
                null, null, null);
        return new Workload("bench-tune", "a busy cluster", 1, new Workload.Cluster(0, "Default", 60, List.of(workers), null, null), null, 20,
                null, null, seconds + 60, events, null, null, null);
    }

    private static Workload.Event tasks(double at, long count, Map<String, BigDecimal> shape, double seconds) {
        return new Workload.Event(at, new Workload.Tasks(count, shape, seconds, null), null, null, null, null, null, null, null, null, null);
    }
}
