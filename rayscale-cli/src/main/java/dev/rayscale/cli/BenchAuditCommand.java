package dev.rayscale.cli;

import dev.rayscale.audit.BuildInfo;
import dev.rayscale.audit.Exporter;
import dev.rayscale.audit.KafkaRecords;
import dev.rayscale.audit.Recorded;
import dev.rayscale.demo.BrokerProcess;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ./rayscale bench-audit}: audit and replay of a long history, from a file and from a broker, timed and measured. */
@Command(name = "bench-audit", mixinStandardHelpOptions = true,
        description = {"Generates a history of many clusters (the golden walk-through lived again and again by each), writes it to "
                + "an export file and to a real Kafka broker, then runs ./rayscale audit and ./rayscale replay --verify on each as a "
                + "user would (separate processes) and measures wall time, events per second and peak resident memory. Last line:",
            "  bench-audit: events=N clusters=C file_audit_eps=.. file_replay_eps=.. kafka_audit_eps=.. kafka_replay_eps=.. max_rss_mib=.."})
public class BenchAuditCommand implements Callable<Integer> {

    private static final int KAFKA_PORT = 19292;
    private static final int PARTITIONS = 6;

    @Option(names = "--events", defaultValue = "1000000", description = "Events in the history. Default: ${DEFAULT-VALUE}.")
    long events;

    @Option(names = "--clusters", defaultValue = "1000", description = "Clusters in the history. Default: ${DEFAULT-VALUE}.")
    int clusters;

    @Option(names = "--compression", defaultValue = "gzip",
            description = "The producer's compression codec on the broker (gzip is what the three services write). Default: ${DEFAULT-VALUE}.")
    String compression;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Path root = Home.root();
        Path work = Home.work("bench-audit");
        Files.createDirectories(work);
        Path history = work.resolve("history.jsonl");
        SyntheticHistory synthetic = SyntheticHistory.fromTemplate(BuildInfo.plannerVersion());
        Instant start = Instant.now().minusSeconds(24 * 3600);
        long written;
        try (Exporter exporter = new Exporter(history)) {
            written = synthetic.write(clusters, events, start, exporter::write);
        }
        out.printf(Locale.ROOT, "history: %d events of %d clusters, %d MiB as %s%n", written, clusters, Files.size(history) >> 20, history);
        out.flush();
        List<MeasuredRun> runs = new ArrayList<>();
        runs.add(MeasuredRun.of(root, work, "file", List.of("audit", "--file", history.toString())));
        runs.add(MeasuredRun.of(root, work, "file", List.of("replay", "--verify", "--file", history.toString())));
        try (BrokerProcess kafka = BrokerProcess.start(root, work.resolve("kafka"), KAFKA_PORT)) {
            String bootstrap = kafka.bootstrapServers().trim();
            produce(bootstrap, synthetic, start);
            out.println("broker: " + written + " events on " + bootstrap + " (" + PARTITIONS + " partitions per topic, " + compression
                    + " compressed)");
            out.flush();
            runs.add(MeasuredRun.of(root, work, "kafka", List.of("audit", "--bootstrap-servers", bootstrap)));
            runs.add(MeasuredRun.of(root, work, "kafka", List.of("replay", "--verify", "--bootstrap-servers", bootstrap)));
        }
        out.printf(Locale.ROOT, "%-6s %-7s %8s %12s %13s %5s  %s%n", "source", "command", "wall_s", "events_per_s", "peak_rss_mib", "exit",
                "last line");
        for (MeasuredRun run : runs) {
            out.printf(Locale.ROOT, "%-6s %-7s %8.1f %12.0f %13d %5d  %s%n", run.source(), run.command(), run.seconds(), written / run.seconds(),
                    run.rssMiB(), run.exitCode(), run.lastLine());
        }
        out.printf(Locale.ROOT, "bench-audit: events=%d clusters=%d file_audit_eps=%.0f file_replay_eps=%.0f kafka_audit_eps=%.0f "
                + "kafka_replay_eps=%.0f max_rss_mib=%d%n", written, clusters, written / runs.get(0).seconds(), written / runs.get(1).seconds(),
                written / runs.get(2).seconds(), written / runs.get(3).seconds(), runs.stream().mapToLong(MeasuredRun::rssMiB).max().orElse(0));
        out.flush();
        return runs.stream().allMatch(run -> run.exitCode() == 0) ? 0 : 1;
    }

    private void produce(String bootstrap, SyntheticHistory synthetic, Instant start)
            throws InterruptedException, ExecutionException, TimeoutException {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            List<NewTopic> topics = KafkaRecords.TOPICS.stream().map(topic -> new NewTopic(topic, PARTITIONS, (short) 1)).toList();
            admin.createTopics(topics).all().get(60, TimeUnit.SECONDS);
        }
        // Batched as the services batch (Kafka's default batch size), so that the broker holds batches like theirs.
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.LINGER_MS_CONFIG, "20", ProducerConfig.COMPRESSION_TYPE_CONFIG, compression,
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true"), new StringSerializer(),
                new ByteArraySerializer())) {
            AtomicLong failed = new AtomicLong();
            AtomicReference<Exception> firstFailure = new AtomicReference<>();
            synthetic.write(clusters, events, start, (Recorded record) -> producer.send(new ProducerRecord<>(record.topic(), null,
                    record.timestamp(), record.key(), record.value(), record.headers()), (written, failure) -> {
                        if (failure != null) {
                            failed.incrementAndGet();
                            firstFailure.compareAndSet(null, failure);
                        }
                    }));
            producer.flush();
            if (failed.get() > 0) {
                // A history with holes would be measured as a smaller one, and audited as incomplete: not a benchmark.
                throw new IllegalStateException(failed.get() + " of the history's events could not be written to " + bootstrap
                        + "; the first failure: " + firstFailure.get(), firstFailure.get());
            }
        }
    }
}
