package dev.rayscale.cli;

import dev.rayscale.bench.CollectorBench;
import dev.rayscale.demo.BrokerProcess;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ./rayscale bench-collector}: one collector against many fake clusters; prints CPU, RSS and snapshot lag. */
@Command(name = "bench-collector", mixinStandardHelpOptions = true,
        description = "Runs one demand-collector process against many opted-in clusters (an embedded API server and one fake GCS "
                + "answering for all) at its default 1 s poll interval, with a real Kafka broker, optionally with running worker pods "
                + "in each cluster; prints CPU use, resident memory and snapshot lag.")
public class BenchCollectorCommand implements Callable<Integer> {

    @Option(names = "--clusters", defaultValue = "1000", description = "Clusters to watch. Default: ${DEFAULT-VALUE}.")
    int clusters;

    @Option(names = "--pods", defaultValue = "0",
            description = "Running worker pods in each cluster, for the collector to cache (40 gives a fleet's 40,000). Default: ${DEFAULT-VALUE}.")
    int pods;

    @Option(names = "--seconds", defaultValue = "60", description = "Measured seconds (after a 20 s warm-up). Default: ${DEFAULT-VALUE}.")
    int seconds;

    @Option(names = "--heap", defaultValue = "64m", description = "The collector's -Xmx. Default: ${DEFAULT-VALUE}.")
    String heap;

    @Option(names = "--jvm-option", paramLabel = "OPTION", description = "An extra JVM option for the collector (repeatable).")
    List<String> jvmOptions = new ArrayList<>();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Path root = Home.root();
        Path work = Home.work("bench");
        try (BrokerProcess kafka = BrokerProcess.start(root, work.resolve("kafka"), DemoCommand.KAFKA_PORT)) {
            List<String> options = new ArrayList<>(List.of("-Xmx" + heap, "-Xss256k", "-XX:TieredStopAtLevel=1", "-XX:MaxDirectMemorySize=32m", "-XX:ReservedCodeCacheSize=48m",
                            "-XX:MaxMetaspaceSize=128m", "-Drayscale.collector.poll-interval=1s", "-Drayscale.collector.heartbeat=5s"));
            options.addAll(jvmOptions);
            CollectorBench.Figures figures = CollectorBench.run(clusters, pods, Duration.ofSeconds(seconds), kafka.bootstrapServers(), root, work,
                    options, line -> {
                        out.println(line);
                        out.flush();
                    });
            out.println(figures.line());
            out.flush();
        }
        return 0;
    }
}
