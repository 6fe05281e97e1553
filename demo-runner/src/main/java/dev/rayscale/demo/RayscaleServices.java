package dev.rayscale.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Rayscale's three services as separate processes, as in production: each its own JVM, built
 * Quarkus application ({@code <module>/target/quarkus-app}), talking to the given Kafka broker and
 * Kubernetes API server. Each logs to a file of its own.
 */
public final class RayscaleServices implements AutoCloseable {

    public enum Service {
        COLLECTOR("demand-collector", "demandCollector"),
        PLANNER("scaling-planner", "scalingPlanner"),
        ACTUATOR("k8s-actuator", "k8sActuator");

        final String module;
        /** The service's section in the Helm chart's values. */
        final String chartKey;

        Service(String module, String chartKey) {
            this.module = module;
            this.chartKey = chartKey;
        }
    }

    private static final Duration READY_WITHIN = Duration.ofSeconds(90);

    private final Path root;
    private final Path logs;
    private final String bootstrapServers;
    private final String apiServer;
    private final String groupSuffix;
    private final String offsetReset;
    private final Map<Member, Process> running = new ConcurrentHashMap<>();
    private final Map<Member, Integer> ports = new ConcurrentHashMap<>();
    private final JsonNode chartValues;
    /** Added to the services' nice value ({@link #yieldingTo}); 0: the same priority as the process that starts them. */
    private volatile int niceness;

    /**
     * One running copy of a service: copy 1 is the service itself; further copies join the same
     * consumer groups under their own {@code group.instance.id}, as more pods of a Deployment do.
     */
    public record Member(Service service, int copy) {

        /** The copy's name, its log file's and its static group membership's: {@code scaling-planner}, {@code scaling-planner-2}. */
        public String name() {
            return copy == 1 ? service.module : service.module + "-" + copy;
        }
    }

    /**
     * @param root the Rayscale checkout (holding the built services)
     * @param groupSuffix makes the consumer groups this run's own, so that records of other runs on a shared broker are not mistaken for its work
     */
    public RayscaleServices(Path root, Path logs, String bootstrapServers, String apiServer, String groupSuffix) {
        this(root, logs, bootstrapServers, apiServer, groupSuffix, false);
    }

    /**
     * @param ownBroker the broker is this run's alone: everything on its topics is this run's work, so a consumer group
     *     without a committed offset (new, or whose last commit a broker restart lost) reads from the beginning, as the
     *     services do in production; on a shared broker a run's new groups start at the end, since what earlier runs
     *     left there is not this run's work
     */
    public RayscaleServices(Path root, Path logs, String bootstrapServers, String apiServer, String groupSuffix, boolean ownBroker) {
        this.offsetReset = ownBroker ? "earliest" : "latest";
        this.root = root;
        this.logs = logs;
        this.bootstrapServers = bootstrapServers;
        this.apiServer = apiServer;
        this.groupSuffix = groupSuffix;
        try {
            this.chartValues = new ObjectMapper(new YAMLFactory()).readTree(root.resolve("deploy/helm/rayscale/values.yaml").toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the Helm chart's values", e);
        }
        // A run's logs are its own: what an earlier run logged must not be read as this one's.
        try (var old = Files.isDirectory(logs) ? Files.list(logs) : Stream.<Path>empty()) {
            for (Path log : old.filter(file -> file.toString().endsWith(".log")).toList()) {
                Files.delete(log);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot clear the logs in " + logs, e);
        }
    }

    /**
     * Starts the services from now on with {@code niceness} added to their nice value (as {@code nice -n}), so that this
     * machine's CPU goes first to the process that starts them: a bench's simulated fleet stands in for clusters that run
     * on machines of their own, and must keep to its model however busy the services are.
     */
    public RayscaleServices yieldingTo(int niceness) {
        this.niceness = niceness;
        return this;
    }

    /** Starts every service at once and waits until each reports ready. */
    public void startAll() {
        startAll(Map.of());
    }

    /** As {@link #startAll()}, some services with extra JVM options (their settings as system properties). */
    public void startAll(Map<Service, List<String>> options) {
        for (Service service : Service.values()) {
            launch(new Member(service, 1), options.getOrDefault(service, List.of()), Map.of());
        }
        for (Service service : Service.values()) {
            awaitReady(new Member(service, 1));
        }
    }

    public void start(Service service) {
        start(service, List.of());
    }

    /** Starts one service with extra JVM options (system properties, heap size) and waits until it is ready. */
    public void start(Service service, List<String> options) {
        start(new Member(service, 1), options);
    }

    /** Starts a copy of a service (see {@link Member}) and waits until it is ready. */
    public void start(Member member) {
        start(member, List.of());
    }

    /** Starts a copy of a service with extra JVM options and waits until it is ready. */
    public void start(Member member, List<String> options) {
        launch(member, options, Map.of());
        awaitReady(member);
    }

    /**
     * Starts one service with extra JVM options and environment variables (as a pod's, e.g. the Kafka client settings
     * the Helm chart gives), without waiting for it to be ready: see {@link #readiness(Service)} and {@link #awaitReady(Service)}.
     */
    public void launch(Service service, List<String> options, Map<String, String> environment) {
        launch(new Member(service, 1), options, environment);
    }

    /** Waits until a launched service reports ready. */
    public void awaitReady(Service service) {
        awaitReady(new Member(service, 1));
    }

    /** What the service's {@code /q/health/ready} answers now (status and body), or empty while it does not listen. */
    public Optional<HttpResponse<String>> readiness(Service service) {
        HttpRequest ready = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port(service) + "/q/health/ready"))
                .timeout(Duration.ofSeconds(5)).build();
        try {
            return Optional.of(HttpClient.newHttpClient().send(ready, HttpResponse.BodyHandlers.ofString()));
        } catch (IOException notListening) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private void launch(Member member, List<String> options, Map<String, String> environment) {
        Service service = member.service();
        Path jar = root.resolve(service.module).resolve("target/quarkus-app/quarkus-run.jar");
        if (!Files.exists(jar)) {
            throw new IllegalStateException(jar + " is missing: build the services first (./mvnw install -DskipTests)");
        }
        if (!ports.containsKey(member)) {
            ports.put(member, freePort());
        }
        int port = ports.get(member);
        List<String> command = new ArrayList<>(niceness > 0 ? List.of("nice", "-n", String.valueOf(niceness)) : List.of());
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // The JVM as the Helm chart runs it (heap, collector, compilers): the demo, the bench and the tests measure what deploys.
        Arrays.stream(chartValues.path(service.chartKey).path("jvmOptions").asText().split("\\s+"))
                .filter(option -> !option.isBlank()).forEach(command::add);
        command.addAll(List.of(
                "-Dkafka.bootstrap.servers=" + bootstrapServers,
                "-Dquarkus.http.host=127.0.0.1",
                "-Dquarkus.http.port=" + port));
        // The class-data archive the build made of what the service's start-up loads (the parent pom's class-data-archive):
        // it takes about a third off the start-up. Made by another JVM than this one, it is refused with a warning.
        Path archive = jar.resolveSibling("app-cds.jsa");
        if (Files.exists(archive)) {
            command.add("-XX:SharedArchiveFile=" + archive);
        }
        // The Kubernetes client's own settings (as from a kubeconfig): Quarkus fixes its properties for them at build time.
        // A token, as a service account has one (the embedded API server ignores it): without any, fabric8's token refresh
        // re-reads its whole configuration (environment, kubeconfig files) on every request once a minute has passed.
        List<String> apiServerOptions = List.of("-Dkubernetes.master=" + apiServer, "-Dkubernetes.trust.certificates=true",
                "-Dkubernetes.namespace=default", "-Dkubernetes.auth.token=simulated-service-account");
        command.addAll(switch (service) {
            // The simulated GCSs are processes on this machine, reached by each cluster's rayscale.dev/gcs-address: allowed here,
            // as a real install allows it only in the namespaces its Helm values name.
            case COLLECTOR -> List.of("-Drayscale.collector.poll-interval=250ms", "-Drayscale.collector.heartbeat=1s",
                    "-Drayscale.collector.not-reconciled-after=3s", "-Drayscale.collector.gcs.address-override-namespaces=*");
            case PLANNER -> List.of("-Dmp.messaging.incoming.snapshots.group.id=" + group(service),
                    "-Dmp.messaging.incoming.snapshots.auto.offset.reset=" + offsetReset);
            // A hold for another writer as long as a demo can wait (the simulated cluster runs 10-20 times faster).
            case ACTUATOR -> List.of("-Dmp.messaging.incoming.decisions.group.id=" + group(service),
                    "-Dmp.messaging.incoming.decisions.auto.offset.reset=" + offsetReset, "-Drayscale.actuator.other-writers.hold=30s",
                    "-Drayscale.actuator.gcs.address-override-namespaces=*");
        });
        if (service != Service.PLANNER) {
            command.addAll(apiServerOptions);
        }
        command.addAll(options);
        command.addAll(List.of("-jar", jar.toString()));
        try {
            Files.createDirectories(logs);
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log(member).toFile()));
            builder.environment().put("RAYSCALE_INSTANCE", member.name());
            builder.environment().putAll(environment);
            // Fewer glibc malloc arenas: the usual setting for a JVM with a small footprint (as in the deploy manifests).
            builder.environment().put("MALLOC_ARENA_MAX", "2");
            Process process = builder.start();
            running.put(member, process);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + member.name(), e);
        }
    }

    /** A clean stop (SIGTERM), as in a rolling update. */
    public void stop(Service service) {
        stop(new Member(service, 1));
    }

    /** A clean stop (SIGTERM) of one copy: it leaves its consumer groups. */
    public void stop(Member member) {
        Process process = running.remove(member);
        if (process == null) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    /** A crash (SIGKILL): no chance to commit offsets or finish work. */
    public void kill(Service service) {
        Process process = running.remove(new Member(service, 1));
        if (process != null) {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The operating-system process id of a running service. */
    public long pid(Service service) {
        return pid(new Member(service, 1));
    }

    /** The operating-system process id of a running copy; -1 while it is stopped. */
    public long pid(Member member) {
        Process process = running.get(member);
        return process == null ? -1 : process.pid();
    }

    /** The HTTP port of a service (health, metrics). */
    public int port(Service service) {
        return port(new Member(service, 1));
    }

    /** The HTTP port of a copy (health, metrics). */
    public int port(Member member) {
        return ports.get(member);
    }

    public Path log(Service service) {
        return log(new Member(service, 1));
    }

    private Path log(Member member) {
        return logs.resolve(member.name() + ".log");
    }

    /** The consumer group of a consuming service in this run. */
    public String group(Service service) {
        return switch (service) {
            case PLANNER -> "rayscale-scaling-planner-" + groupSuffix;
            case ACTUATOR -> "rayscale-k8s-actuator-" + groupSuffix;
            case COLLECTOR -> throw new IllegalArgumentException("the demand-collector consumes nothing");
        };
    }

    /** Each consumer group of this run and the topic it reads. */
    public Map<String, String> groupTopics() {
        return Map.of(group(Service.PLANNER), dev.rayscale.events.Topics.SNAPSHOTS, group(Service.ACTUATOR), dev.rayscale.events.Topics.DECISIONS);
    }

    /** Stops every service at once (each takes its own time to leave its consumer group). */
    @Override
    public void close() {
        running.values().forEach(Process::destroy);
        for (Member member : List.copyOf(running.keySet())) {
            stop(member);
        }
    }

    private void awaitReady(Member member) {
        int port = ports.get(member);
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest ready = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/q/health/ready"))
                .timeout(Duration.ofSeconds(2)).build();
        Instant deadline = Instant.now().plus(READY_WITHIN);
        while (Instant.now().isBefore(deadline)) {
            Process process = running.get(member);
            if (process == null || !process.isAlive()) {
                throw new IllegalStateException(member.name() + " exited during start-up; see " + log(member));
            }
            try {
                if (http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + member.name(), e);
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + member.name(), e);
            }
        }
        throw new IllegalStateException(member.name() + " not ready within " + READY_WITHIN + "; see " + log(member));
    }

    /**
     * A port free now and not given to another service: the system may hand the same free port out twice in a row,
     * and a service whose port another one took fails to start while the other answers its health checks for it.
     */
    private int freePort() {
        int port;
        do {
            port = FreePorts.firstOf(1);
        } while (ports.containsValue(port));
        return port;
    }
}
