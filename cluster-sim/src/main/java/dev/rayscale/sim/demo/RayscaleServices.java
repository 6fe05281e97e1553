package dev.rayscale.sim.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Rayscale's three services as separate processes, as in production: each its own JVM, built
 * Quarkus application ({@code <module>/target/quarkus-app}), talking to the given Kafka broker and
 * Kubernetes API server. Each logs to a file of its own.
 */
public final class RayscaleServices implements AutoCloseable {

    public enum Service {
        COLLECTOR("demand-collector"),
        PLANNER("scaling-planner"),
        ACTUATOR("k8s-actuator");

        final String module;

        Service(String module) {
            this.module = module;
        }
    }

    private static final Duration READY_WITHIN = Duration.ofSeconds(90);

    private final Path root;
    private final Path logs;
    private final String bootstrapServers;
    private final String apiServer;
    private final String groupSuffix;
    private final Map<Service, Process> running = new EnumMap<>(Service.class);
    private final Map<Service, Integer> ports = new EnumMap<>(Service.class);

    /**
     * @param root the Rayscale checkout (holding the built services)
     * @param groupSuffix makes the consumer groups this run's own, so that records of other runs on a shared broker are not mistaken for its work
     */
    public RayscaleServices(Path root, Path logs, String bootstrapServers, String apiServer, String groupSuffix) {
        this.root = root;
        this.logs = logs;
        this.bootstrapServers = bootstrapServers;
        this.apiServer = apiServer;
        this.groupSuffix = groupSuffix;
        // A run's logs are its own: what an earlier run logged must not be read as this one's.
        for (Service service : Service.values()) {
            try {
                Files.deleteIfExists(log(service));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot clear " + log(service), e);
            }
        }
    }

    /** Starts every service and waits until each reports ready. */
    public void startAll() {
        for (Service service : Service.values()) {
            start(service);
        }
    }

    public void start(Service service) {
        start(service, List.of());
    }

    /** Starts one service with extra JVM options (system properties, heap size) and waits until it is ready. */
    public void start(Service service, List<String> options) {
        Path jar = root.resolve(service.module).resolve("target/quarkus-app/quarkus-run.jar");
        if (!Files.exists(jar)) {
            throw new IllegalStateException(jar + " is missing: build the services first (./mvnw install -DskipTests)");
        }
        int port = ports.computeIfAbsent(service, s -> freePort());
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC",
                "-Dkafka.bootstrap.servers=" + bootstrapServers,
                "-Dquarkus.http.host=127.0.0.1",
                "-Dquarkus.http.port=" + port,
                "-Dquarkus.kubernetes-client.api-server-url=" + apiServer,
                "-Dquarkus.kubernetes-client.trust-certs=true",
                "-Dquarkus.kubernetes-client.namespace=default"));
        command.addAll(switch (service) {
            case COLLECTOR -> List.of("-Drayscale.collector.poll-interval=250ms", "-Drayscale.collector.heartbeat=1s");
            case PLANNER -> List.of("-Dmp.messaging.incoming.snapshots.group.id=rayscale-scaling-planner-" + groupSuffix);
            case ACTUATOR -> List.of("-Dmp.messaging.incoming.decisions.group.id=rayscale-k8s-actuator-" + groupSuffix);
        });
        command.addAll(options);
        command.addAll(List.of("-jar", jar.toString()));
        try {
            Files.createDirectories(logs);
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logs.resolve(service.module + ".log").toFile()));
            // Fewer glibc malloc arenas: the usual setting for a JVM with a small footprint (as in the deploy manifests).
            builder.environment().put("MALLOC_ARENA_MAX", "2");
            Process process = builder.start();
            running.put(service, process);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + service.module, e);
        }
        awaitReady(service, port);
    }

    /** A clean stop (SIGTERM), as in a rolling update. */
    public void stop(Service service) {
        Process process = running.remove(service);
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
        Process process = running.remove(service);
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
        return running.get(service).pid();
    }

    /** The HTTP port of a service (health, metrics). */
    public int port(Service service) {
        return ports.get(service);
    }

    public Path log(Service service) {
        return logs.resolve(service.module + ".log");
    }

    /** Stops every service at once (each takes its own time to leave its consumer group). */
    @Override
    public void close() {
        running.values().forEach(Process::destroy);
        for (Service service : List.copyOf(running.keySet())) {
            stop(service);
        }
    }

    private void awaitReady(Service service, int port) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest ready = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/q/health/ready"))
                .timeout(Duration.ofSeconds(2)).build();
        Instant deadline = Instant.now().plus(READY_WITHIN);
        while (Instant.now().isBefore(deadline)) {
            Process process = running.get(service);
            if (process == null || !process.isAlive()) {
                throw new IllegalStateException(service.module + " exited during start-up; see " + log(service));
            }
            try {
                if (http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + service.module, e);
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + service.module, e);
            }
        }
        throw new IllegalStateException(service.module + " not ready within " + READY_WITHIN + "; see " + log(service));
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
