package dev.rayscale.service;

import io.smallrye.common.annotation.Identifier;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;
import org.jboss.logging.Logger;

/**
 * Ready once every Kafka topic the service reads or writes exists. On a broker that does not create topics on first use
 * ({@code auto.create.topics.enable=false}, usual in production) a service whose topics were not made stayed ready and
 * did nothing: its consumers and producers wait for the topics, and Kafka's clients warn three times a second without
 * saying what to do. Now it is unready, says which topics are missing on {@code /q/health/ready}, and logs it once.
 */
@Readiness
@ApplicationScoped
public class KafkaTopicsReadiness implements HealthCheck {

    /**
     * How long a broker that cannot be asked is waited for: a check by hand then gets the reason. A Kubernetes probe gives up
     * first (after 1 s) and counts that as unready too; a broker that answers does so in milliseconds.
     */
    private static final int WITHIN_MS = 4000;
    private static final Logger LOG = Logger.getLogger(KafkaTopicsReadiness.class);

    private final Map<String, Object> settings;
    private final Set<String> topics;
    private Admin admin;
    private Set<String> missingLastSeen = Set.of();

    @Inject
    public KafkaTopicsReadiness(@Identifier("default-kafka-broker") Map<String, Object> kafka, Config config) {
        this(kafka, KafkaTopics.used(config));
    }

    /** @param kafka the Kafka clients' settings: the bootstrap servers, and the security ones where the broker wants them */
    KafkaTopicsReadiness(Map<String, Object> kafka, Set<String> topics) {
        this.settings = new HashMap<>(kafka);
        settings.keySet().retainAll(AdminClientConfig.configNames());
        settings.put(AdminClientConfig.CLIENT_ID_CONFIG, "rayscale-topics-readiness");
        this.topics = Set.copyOf(topics);
    }

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponseBuilder response = HealthCheckResponse.named("Kafka topics").withData("topics", String.join(", ", new TreeSet<>(topics)));
        if (topics.isEmpty()) {
            return response.up().build();
        }
        try {
            Set<String> missing = new TreeSet<>(topics);
            missing.removeAll(admin().listTopics(new ListTopicsOptions().timeoutMs(WITHIN_MS)).names().get(WITHIN_MS + 500L, TimeUnit.MILLISECONDS));
            saidOnce(missing);
            return missing.isEmpty() ? response.up().build() : response.down().withData("missing", String.join(", ", missing)).build();
        } catch (ExecutionException | TimeoutException failed) {
            return response.down().withData("reason", "cannot list the broker's topics: " + Causes.root(failed)).build();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return response.down().withData("reason", "interrupted").build();
        }
    }

    /** Made on the first check: a service whose channels are all elsewhere (its tests' in-memory ones) has none. */
    private synchronized Admin admin() {
        if (admin == null) {
            admin = Admin.create(settings);
        }
        return admin;
    }

    private synchronized void saidOnce(Set<String> missing) {
        if (missing.equals(missingLastSeen)) {
            return;
        }
        if (missing.isEmpty()) {
            LOG.infof("the Kafka topics %s exist now", missingLastSeen);
        } else {
            LOG.warnf("the Kafka topics %s do not exist, and the broker does not create them: this service is not ready and waits "
                    + "for them. Create them as deploy/README.md says (the Helm chart does with Strimzi), or let the broker "
                    + "create topics (auto.create.topics.enable)", missing);
        }
        missingLastSeen = Set.copyOf(missing);
    }

    @PreDestroy
    synchronized void close() {
        if (admin != null) {
            admin.close(Duration.ofSeconds(1));
        }
    }
}
