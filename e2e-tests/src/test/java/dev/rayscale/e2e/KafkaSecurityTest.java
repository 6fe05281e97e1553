package dev.rayscale.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rayscale.demo.BrokerProcess;
import dev.rayscale.demo.FreePorts;
import dev.rayscale.demo.RayscaleServices;
import dev.rayscale.demo.RayscaleServices.Service;
import dev.rayscale.events.ClusterSnapshot;
import dev.rayscale.events.Topics;
import dev.rayscale.events.codec.EventCodec;
import dev.rayscale.events.codec.SnapshotSerializer;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A service on a secured Kafka, configured only with the standard Kafka client properties as the Helm chart sets
 * them (KAFKA_* environment variables): SASL/SCRAM over TLS and mutual TLS against a real broker with such listeners
 * and certificates made for the test; a wrong password makes readiness DOWN with the reason; no secret is ever logged.
 */
class KafkaSecurityTest {

    private static final String USER = "rayscale";
    private static final String PASSWORD = "scram-" + Long.toHexString(System.nanoTime()) + "-secret";
    private static final String CLUSTER = "default/raycluster-autoscaler";

    private static Path folder;
    private static TestCertificates certificates;
    private static BrokerProcess broker;
    private static int port;

    @BeforeAll
    static void startSecuredBroker() throws Exception {
        folder = Files.createTempDirectory("rayscale-kafka-security");
        certificates = TestCertificates.create(folder);
        port = FreePorts.firstOf(4);
        Path listeners = folder.resolve("secured.properties");
        Files.writeString(listeners, String.join("\n",
                "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + (port + 1) + ",SASL_SSL://127.0.0.1:" + (port + 2)
                        + ",SSL://127.0.0.1:" + (port + 3),
                "advertised.listeners=PLAINTEXT://127.0.0.1:" + port + ",SASL_SSL://127.0.0.1:" + (port + 2) + ",SSL://127.0.0.1:" + (port + 3),
                "listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,SASL_SSL:SASL_SSL,SSL:SSL",
                "sasl.enabled.mechanisms=SCRAM-SHA-512",
                "listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;",
                "ssl.keystore.location=" + certificates.brokerKeystore(),
                "ssl.keystore.type=PKCS12",
                "ssl.keystore.password=" + certificates.storePassword(),
                "ssl.truststore.location=" + certificates.caPem(),
                "ssl.truststore.type=PEM",
                "listener.name.ssl.ssl.client.auth=required",
                ""));
        broker = BrokerProcess.start(ClosedLoops.ROOT, folder.resolve("broker"), port, Map.of("RAYSCALE_KAFKA_EXTRA_PROPERTIES",
                listeners.toString(), "RAYSCALE_KAFKA_SCRAM", "SCRAM-SHA-512=[name=" + USER + ",password=" + PASSWORD + "]"));
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", plaintext()))) {
            admin.createTopics(List.of(new NewTopic(Topics.SNAPSHOTS, 1, (short) 1), new NewTopic(Topics.DECISIONS, 1, (short) 1),
                    new NewTopic(Topics.deadLetter("scaling-planner"), 1, (short) 1))).all().get();
        }
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void scramOverTlsCarriesSnapshotsInAndDecisionsOut() throws Exception {
        try (RayscaleServices services = services("scram", port + 2)) {
            services.launch(Service.PLANNER, List.of(), scram(PASSWORD));
            services.awaitReady(Service.PLANNER);
            assertPlansWhatItIsSent();
            assertThat(Files.readString(services.log(Service.PLANNER))).as("the planner's log")
                    .contains("Successfully logged in").doesNotContain(PASSWORD);
        }
    }

    @Test
    void mutualTlsCarriesSnapshotsInAndDecisionsOut() throws Exception {
        try (RayscaleServices services = services("mtls", port + 3)) {
            services.launch(Service.PLANNER, List.of(), Map.of(
                    "KAFKA_SECURITY_PROTOCOL", "SSL",
                    "KAFKA_SSL_TRUSTSTORE_LOCATION", certificates.caPem().toString(),
                    "KAFKA_SSL_TRUSTSTORE_TYPE", "PEM",
                    "KAFKA_SSL_KEYSTORE_LOCATION", certificates.clientKeystore().toString(),
                    "KAFKA_SSL_KEYSTORE_TYPE", "PKCS12",
                    "KAFKA_SSL_KEYSTORE_PASSWORD", certificates.storePassword()));
            services.awaitReady(Service.PLANNER);
            assertPlansWhatItIsSent();
            assertThat(Files.readString(services.log(Service.PLANNER))).as("the planner's log")
                    .doesNotContain(certificates.storePassword());
        }
    }

    @Test
    void aWrongPasswordIsReadinessDownWithTheReasonWithinSeconds() throws Exception {
        String wrong = "not-" + PASSWORD;
        try (RayscaleServices services = services("wrong-password", port + 2)) {
            Instant launched = Instant.now();
            services.launch(Service.PLANNER, List.of(), scram(wrong));
            HttpResponse<String> down = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                    .until(() -> services.readiness(Service.PLANNER), answer -> answer.isPresent() && answer.get().statusCode() == 503
                            && answer.get().body().contains("Authentication failed")).orElseThrow();
            System.out.printf("kafka-security: readiness DOWN %d ms after launch: %s%n", Duration.between(launched, Instant.now()).toMillis(),
                    down.body().replaceAll("\\s+", " "));
            assertThat(down.body()).contains("DOWN").contains("invalid credentials");
            assertThat(Files.readString(services.log(Service.PLANNER))).as("the planner's log, its authentication failures included")
                    .contains("invalid credentials").doesNotContain(wrong).doesNotContain(PASSWORD);
        }
    }

    /** The environment the Helm chart gives a service for SASL_SSL with SCRAM (the CA as PEM, the credentials in the JAAS line). */
    private static Map<String, String> scram(String password) {
        return Map.of(
                "KAFKA_SECURITY_PROTOCOL", "SASL_SSL",
                "KAFKA_SASL_MECHANISM", "SCRAM-SHA-512",
                "KAFKA_SASL_JAAS_CONFIG", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + USER
                        + "\" password=\"" + password + "\";",
                "KAFKA_SSL_TRUSTSTORE_LOCATION", certificates.caPem().toString(),
                "KAFKA_SSL_TRUSTSTORE_TYPE", "PEM");
    }

    private static RayscaleServices services(String name, int securedPort) throws IOException {
        return new RayscaleServices(ClosedLoops.ROOT, folder.resolve("logs-" + name), "127.0.0.1:" + securedPort, "http://127.0.0.1:1",
                name + "-" + Long.toHexString(System.nanoTime()), true);
    }

    /** A fresh snapshot of the walk-through (15 one-CPU tasks) sent over the plaintext listener, and its decision read back from it. */
    private static void assertPlansWhatItIsSent() throws Exception {
        long sequence = System.currentTimeMillis();
        ObjectNode json;
        try (InputStream example = KafkaSecurityTest.class.getResourceAsStream("/examples/cluster-snapshot/walkthrough.json")) {
            json = (ObjectNode) new ObjectMapper().readTree(example);
        }
        json.put("id", CLUSTER + "@" + sequence).put("sequence", sequence).put("observedAt", Instant.now().toString());
        ClusterSnapshot snapshot = EventCodec.SNAPSHOTS.decode(json.toString());
        Properties producer = new Properties();
        producer.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, plaintext());
        try (KafkaProducer<String, ClusterSnapshot> out = new KafkaProducer<>(producer, new StringSerializer(), new SnapshotSerializer());
                KafkaConsumer<String, String> in = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, plaintext(),
                        ConsumerConfig.GROUP_ID_CONFIG, "check-" + sequence, ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                        new StringDeserializer(), new StringDeserializer())) {
            out.send(new ProducerRecord<>(Topics.SNAPSHOTS, CLUSTER, snapshot)).get();
            in.subscribe(List.of(Topics.DECISIONS));
            List<String> decisions = new ArrayList<>();
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                for (ConsumerRecord<String, String> record : in.poll(Duration.ofMillis(200))) {
                    decisions.add(record.value());
                }
                return decisions.stream().anyMatch(decision -> decision.contains(snapshot.id()));
            });
        }
    }

    private static String plaintext() {
        return "127.0.0.1:" + port;
    }

    /** A port with the three after it free too (the broker's controller, SASL_SSL and SSL listeners). */
}
