package dev.rayscale.cli;

import dev.rayscale.bench.BenchReport;
import dev.rayscale.bench.FleetBench;
import dev.rayscale.demo.BrokerProcess;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ./rayscale bench}: the whole pipeline over a simulated fleet; prints latencies per hop, footprints, and what was lost. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Runs Rayscale end to end over a simulated fleet: many Ray clusters (the faithful simulator's GCS, raylets and "
                + "KubeRay reconciliation, in one embedded Kubernetes API), the three services as separate processes with the Helm "
                + "chart's JVM settings, a real Kafka broker, and each cluster's demand changing on its own schedule. Prints, per "
                + "change, the time to the snapshot, the decision and the patch (p50, p99, max), each service's CPU and memory, the "
                + "consumer lag, and whether anything was lost or applied twice; judges the run by the fleet's targets (the simulator keeping "
                + "its model, Rayscale's own time, its reaction, CPU, memory, nothing lost). Exit status 0 when every target was met, 1 "
                + "naming the stages that missed theirs.")
public class BenchCommand implements Callable<Integer> {

    @Option(names = "--clusters", defaultValue = "1000", description = "Simulated clusters. Default: ${DEFAULT-VALUE}.")
    int clusters;

    @Option(names = "--largest", defaultValue = "200", description = "Workers at most in the largest ordinary cluster; sizes spread "
            + "from 1 to it on a log scale. Default: ${DEFAULT-VALUE}.")
    int largest;

    @Option(names = "--big-clusters", description = "How many clusters have 2,000 workers at most. Default: one per 500 clusters.")
    Integer bigClusters;

    @Option(names = "--rate", defaultValue = "100", description = "Demand changes per second over the fleet. Default: ${DEFAULT-VALUE}.")
    double rate;

    @Option(names = "--duration", defaultValue = "120", description = "Measured seconds (after the warm-up). Default: ${DEFAULT-VALUE}.")
    int duration;

    @Option(names = "--warm-up", defaultValue = "60s", description = "How long the changes run before the measurement starts; they are "
            + "followed too (a lost one counts) but not in the figures (20s, 2m, ...). Default: ${DEFAULT-VALUE}.")
    String warmUp;

    @Option(names = "--planners", defaultValue = "1", description = "scaling-planner processes sharing the snapshots; with 2 or more, one "
            + "is stopped halfway and started again. Default: ${DEFAULT-VALUE}.")
    int planners;

    @Option(names = "--actuators", defaultValue = "1", description = "k8s-actuator processes sharing the decisions; with 2 or more, one "
            + "is stopped halfway and started again. Default: ${DEFAULT-VALUE}.")
    int actuators;

    @Option(names = "--poll-interval", defaultValue = "1s", description = "The collector's GCS poll interval (250ms, 1s, ...). Default: ${DEFAULT-VALUE}.")
    String pollInterval;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of the fleet's sizes and changes. Default: ${DEFAULT-VALUE}.")
    long seed;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        FleetBench.Settings settings = new FleetBench.Settings(clusters, largest, bigClusters == null ? clusters / 500 : bigClusters, rate,
                Durations.parse(warmUp, spec.commandLine(), "--warm-up"), Duration.ofSeconds(duration), planners, actuators,
                Durations.parse(pollInterval, spec.commandLine(), "--poll-interval"), seed);
        try (BrokerProcess kafka = BrokerProcess.yielding(Home.root(), Home.work("bench").resolve("kafka"), DemoCommand.KAFKA_PORT,
                FleetBench.NICENESS)) {
            BenchReport report = FleetBench.run(settings, kafka.bootstrapServers(), Home.root(), Home.work("bench"), line -> {
                out.println(line);
                out.flush();
            });
            report.table().forEach(out::println);
            List<String> missed = report.missed();
            if (!missed.isEmpty()) {
                out.println("bench: targets missed by stage: " + String.join(", ", missed));
            }
            out.println(report.line());
            out.flush();
            return report.clean() && missed.isEmpty() ? 0 : 1;
        }
    }
}
