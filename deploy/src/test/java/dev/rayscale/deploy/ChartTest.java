package dev.rayscale.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.marcnuri.helm.LintResult;
import dev.rayscale.testsupport.DocumentedPermissions;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The Helm chart, linted and rendered by Helm for every value set, and its objects checked. */
class ChartTest {

    private static final String SET_DEFAULTS = "defaults";

    @Test
    void lintsCleanEvenWhenWarningsCountAsFailures() {
        LintResult lint = Chart.helm().lint().strict().call();
        assertThat(lint.isFailed()).as("helm lint --strict: %s", lint.getMessages()).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {SET_DEFAULTS, "sasl-tls", "mtls", "namespaced", "native", "operations"})
    void everyContainerHasLimitsProbesAndARestrictedSecurityContext(String valueSet) {
        Chart.Rendering rendering = render(valueSet);
        Map<String, PodSpec> pods = rendering.pods();
        assertThat(pods).containsOnlyKeys(Chart.COMPONENTS);
        pods.forEach((component, pod) -> {
            assertThat(pod.getSecurityContext().getRunAsNonRoot()).as(component).isTrue();
            assertThat(pod.getSecurityContext().getSeccompProfile().getType()).as(component).isEqualTo("RuntimeDefault");
            assertThat(pod.getServiceAccountName()).isEqualTo(Chart.RELEASE + "-" + component);
            assertThat(pod.getContainers()).hasSize(1);
            Container container = pod.getContainers().get(0);
            assertThat(container.getResources().getRequests()).as(component).containsKeys("cpu", "memory");
            assertThat(container.getResources().getLimits()).as(component).containsKeys("cpu", "memory");
            var security = container.getSecurityContext();
            assertThat(security.getRunAsNonRoot()).as(component).isTrue();
            assertThat(security.getAllowPrivilegeEscalation()).as(component).isFalse();
            assertThat(security.getReadOnlyRootFilesystem()).as(component).isTrue();
            assertThat(security.getPrivileged()).as(component).isNotEqualTo(Boolean.TRUE);
            assertThat(security.getCapabilities().getDrop()).as(component).containsExactly("ALL");
            assertThat(security.getCapabilities().getAdd()).as(component).isNullOrEmpty();
            assertThat(container.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/q/health/ready");
            assertThat(container.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/q/health/live");
            assertThat(container.getStartupProbe().getHttpGet().getPath()).isEqualTo("/q/health/started");
        });
        assertThat(rendering.all(PodDisruptionBudget.class)).extracting(Chart.Rendering::component)
                .containsExactlyInAnyOrderElementsOf(Chart.COMPONENTS);
    }

    @Test
    void clusterWideByDefaultWithExactlyTheDocumentedPermissions() throws Exception {
        Chart.Rendering rendering = render(SET_DEFAULTS);
        assertThat(rendering.all(Role.class)).isEmpty();
        Map<String, Map<String, Set<String>>> granted = new TreeMap<>();
        for (ClusterRole role : rendering.all(ClusterRole.class)) {
            granted.put(Chart.Rendering.component(role), grants(role.getRules()));
        }
        for (ClusterRoleBinding binding : rendering.all(ClusterRoleBinding.class)) {
            assertThat(binding.getRoleRef().getName()).isEqualTo(binding.getMetadata().getName());
            assertThat(binding.getSubjects()).singleElement().satisfies(subject -> {
                assertThat(subject.getName()).isEqualTo(Chart.RELEASE + "-" + Chart.Rendering.component(binding));
                assertThat(subject.getNamespace()).isEqualTo(Chart.NAMESPACE);
            });
        }
        assertThat(granted).as("no Secret anywhere unless watch.tokenSecretNamespaces names a namespace")
                .isEqualTo(withoutEmpty(DocumentedPermissions.read(Path.of("README.md"), false)));
        assertPlannerHasNoKubernetesAccess(rendering);
    }

    @Test
    void namespacedRolesInEachWatchedNamespaceAndTheCollectorWatchesOnlyThose() throws Exception {
        Chart.Rendering rendering = render("namespaced");
        assertThat(rendering.all(ClusterRole.class)).isEmpty();
        assertThat(rendering.all(ClusterRoleBinding.class)).isEmpty();
        Map<String, Map<String, Set<String>>> withoutSecrets = withoutEmpty(DocumentedPermissions.read(Path.of("README.md"), false));
        Map<String, Map<String, Set<String>>> withSecrets = withoutEmpty(DocumentedPermissions.read(Path.of("README.md"), true));
        for (String namespace : List.of("team-a", "team-b")) {
            Map<String, Map<String, Set<String>>> granted = new TreeMap<>();
            rendering.all(Role.class).stream().filter(role -> role.getMetadata().getNamespace().equals(namespace))
                    .forEach(role -> grants(role.getRules()).forEach((resource, verbs) -> granted
                            .computeIfAbsent(Chart.Rendering.component(role), component -> new TreeMap<>())
                            .computeIfAbsent(resource, key -> new TreeSet<>()).addAll(verbs)));
            boolean tokens = namespace.equals("team-b");
            assertThat(granted).as("rules in %s", namespace).isEqualTo(tokens ? withSecrets : withoutSecrets);
            assertThat(rendering.all(RoleBinding.class)).filteredOn(binding -> binding.getMetadata().getNamespace().equals(namespace))
                    .hasSize(tokens ? 4 : 2).allSatisfy(binding -> assertThat(binding.getSubjects().get(0).getNamespace()).isEqualTo(Chart.NAMESPACE));
        }
        Container collector = rendering.container("demand-collector");
        assertThat(env(collector, "RAYSCALE_COLLECTOR_NAMESPACES")).contains("team-a,team-b");
        assertThat(env(collector, "RAYSCALE_COLLECTOR_SHARD_COUNT")).contains("3");
        assertPlannerHasNoKubernetesAccess(rendering);
    }

    /** Whoever can write rayscale.decisions can resize every cluster: by default each service is its own SASL principal. */
    @Test
    void saslOverTlsByDefaultEachServiceWithItsOwnCredentials() {
        Chart.Rendering rendering = render(SET_DEFAULTS);
        for (String component : Chart.COMPONENTS) {
            Container container = rendering.container(component);
            assertThat(env(container, "KAFKA_BOOTSTRAP_SERVERS")).contains("rayscale-kafka-bootstrap.kafka.svc:9093");
            assertThat(env(container, "KAFKA_SECURITY_PROTOCOL")).contains("SASL_SSL");
            assertThat(secretRef(container, "KAFKA_SASL_JAAS_CONFIG")).isEqualTo(Chart.RELEASE + "-" + component + "/sasl.jaas.config");
            assertThat(container.getImage()).isEqualTo("ghcr.io/rayscale/" + component + ":0.1.0");
            // The JVM image's class-data archive, made by its Dockerfile.jvm: the chart's options replace the image's own.
            assertThat(env(container, "JAVA_OPTS_APPEND")).hasValueSatisfying(options -> assertThat(options)
                    .contains("-Xmx").contains("-XX:SharedArchiveFile=/deployments/app-cds.jsa").contains("-XX:+ExitOnOutOfMemoryError"));
        }
    }

    @Test
    void plaintextKafkaOnlyOnPurpose() {
        assertThatThrownBy(() -> Chart.render(null, Map.of("kafka.securityProtocol", "PLAINTEXT"))).hasMessageContaining("allowPlaintext");
        Chart.Rendering rendering = Chart.render(null, Map.of("kafka.securityProtocol", "PLAINTEXT", "kafka.allowPlaintext", "true"));
        for (String component : Chart.COMPONENTS) {
            assertThat(rendering.container(component).getEnv()).extracting(EnvVar::getName)
                    .noneMatch(name -> name.startsWith("KAFKA_SASL") || name.startsWith("KAFKA_SSL"));
        }
    }

    @Test
    void saslScramOverTlsTakesTheWholeJaasLineFromEachServicesSecret() {
        Chart.Rendering rendering = render("sasl-tls");
        for (String component : Chart.COMPONENTS) {
            Container container = rendering.container(component);
            PodSpec pod = rendering.pods().get(component);
            assertThat(env(container, "KAFKA_SECURITY_PROTOCOL")).contains("SASL_SSL");
            assertThat(env(container, "KAFKA_SASL_MECHANISM")).contains("SCRAM-SHA-512");
            String secret = component.equals("k8s-actuator") ? "actuator-kafka-user" : Chart.RELEASE + "-" + component;
            assertThat(secretRef(container, "KAFKA_SASL_JAAS_CONFIG")).isEqualTo(secret + "/sasl.jaas.config");
            assertTruststoreMounted(pod, container);
        }
        assertThat(rendering.yaml()).doesNotContainIgnoringCase("password").doesNotContain("LoginModule");
    }

    @Test
    void mutualTlsMountsEachServicesOwnKeystore() {
        Chart.Rendering rendering = render("mtls");
        for (String component : Chart.COMPONENTS) {
            Container container = rendering.container(component);
            PodSpec pod = rendering.pods().get(component);
            String secret = Chart.RELEASE + "-" + component;
            assertThat(env(container, "KAFKA_SECURITY_PROTOCOL")).contains("SSL");
            assertThat(container.getEnv()).extracting(EnvVar::getName).noneMatch(name -> name.startsWith("KAFKA_SASL"));
            assertMounted(pod, container, env(container, "KAFKA_SSL_KEYSTORE_LOCATION").orElseThrow(), secret, "user.p12");
            assertThat(env(container, "KAFKA_SSL_KEYSTORE_TYPE")).contains("PKCS12");
            assertThat(secretRef(container, "KAFKA_SSL_KEYSTORE_PASSWORD")).isEqualTo(secret + "/user.password");
            assertTruststoreMounted(pod, container);
        }
    }

    /** Each principal may do what its service does and no more: only the planner writes decisions. */
    @Test
    void eachServicesKafkaUserHasExactlyTheAclsItNeeds() {
        Map<String, Set<String>> acls = new TreeMap<>();
        render("mtls").all(GenericKubernetesResource.class).stream().filter(resource -> resource.getKind().equals("KafkaUser"))
                .forEach(user -> {
                    JsonNode spec = new ObjectMapper().valueToTree(user.getAdditionalProperties().get("spec"));
                    assertThat(spec.at("/authentication/type").asText()).isEqualTo("tls");
                    Set<String> granted = new TreeSet<>();
                    spec.at("/authorization/acls").forEach(acl -> acl.get("operations").forEach(operation -> granted.add(
                            acl.at("/resource/type").asText() + ":" + acl.at("/resource/name").asText() + ":" + operation.asText())));
                    acls.put(user.getMetadata().getName(), granted);
                });
        assertThat(acls).containsOnlyKeys(Chart.COMPONENTS.stream().map(component -> Chart.RELEASE + "-" + component).toArray(String[]::new));
        assertThat(acls.get("rayscale-demand-collector")).containsExactlyInAnyOrder("topic:rayscale.snapshots:Write",
                "topic:rayscale.snapshots:Describe");
        assertThat(acls.get("rayscale-scaling-planner")).containsExactlyInAnyOrder("topic:rayscale.snapshots:Read",
                "topic:rayscale.snapshots:Describe", "group:rayscale-scaling-planner:Read", "topic:rayscale.decisions:Write",
                "topic:rayscale.decisions:Describe", "topic:rayscale.scaling-planner.dlq:Write", "topic:rayscale.scaling-planner.dlq:Describe");
        assertThat(acls.get("rayscale-k8s-actuator")).containsExactlyInAnyOrder("topic:rayscale.decisions:Read",
                "topic:rayscale.decisions:Describe", "group:rayscale-k8s-actuator:Read", "topic:rayscale.actuations:Write",
                "topic:rayscale.actuations:Describe", "topic:rayscale.k8s-actuator.dlq:Write", "topic:rayscale.k8s-actuator.dlq:Describe");
        assertThat(acls.values().stream().flatMap(Set::stream).filter(acl -> acl.startsWith("topic:rayscale.decisions:Write")))
                .as("writers of the decisions").hasSize(1);
    }

    /** Ray's GCS TLS is mutual (fact D55): the collector and the actuator present the chart's certificate; the planner reaches no GCS. */
    @Test
    void gcsTlsMountsTheClientCertificateForTheCollectorAndActuatorOnly() {
        Chart.Rendering rendering = Chart.render(null, Map.of("gcs.tls.secretName", "rayscale-gcs-client"));
        for (String component : List.of("demand-collector", "k8s-actuator")) {
            Container container = rendering.container(component);
            PodSpec pod = rendering.pods().get(component);
            String prefix = component.equals("demand-collector") ? "RAYSCALE_COLLECTOR_GCS" : "RAYSCALE_ACTUATOR_GCS";
            assertMounted(pod, container, env(container, prefix + "_TLS_CERT_FILE").orElseThrow(), "rayscale-gcs-client", "tls.crt");
            assertMounted(pod, container, env(container, prefix + "_TLS_KEY_FILE").orElseThrow(), "rayscale-gcs-client", "tls.key");
            assertMounted(pod, container, env(container, prefix + "_TLS_CA_FILE").orElseThrow(), "rayscale-gcs-client", "ca.crt");
        }
        assertThat(rendering.container("scaling-planner").getEnv()).extracting(EnvVar::getName).noneMatch(name -> name.contains("GCS"));
        assertThat(Chart.render(null).container("demand-collector").getEnv()).extracting(EnvVar::getName)
                .as("no Secret named, nothing mounted").noneMatch(name -> name.contains("_TLS_"));
    }

    @Test
    void nativeImagesAreTaggedAsSuchAndTakeNoJvmOptions() {
        Chart.Rendering rendering = render("native");
        for (String component : Chart.COMPONENTS) {
            Container container = rendering.container(component);
            assertThat(container.getImage()).isEqualTo("ghcr.io/rayscale/" + component + ":0.2.0-native");
            assertThat(env(container, "JAVA_OPTS_APPEND")).isEmpty();
        }
    }

    @Test
    void networkPoliciesLetOnlyTheCollectorAndActuatorReachTheApiServerAndGcs() {
        Map<String, Set<Integer>> egress = new TreeMap<>();
        for (NetworkPolicy policy : render(SET_DEFAULTS).all(NetworkPolicy.class)) {
            assertThat(policy.getSpec().getPolicyTypes()).containsExactlyInAnyOrder("Ingress", "Egress");
            assertThat(policy.getSpec().getIngress()).singleElement().satisfies(rule -> {
                assertThat(rule.getPorts()).extracting(port -> port.getPort().getIntVal()).containsExactly(8080);
                assertThat(rule.getFrom()).as("metrics for the monitoring namespace only").singleElement().satisfies(peer ->
                        assertThat(peer.getNamespaceSelector().getMatchLabels()).containsEntry("kubernetes.io/metadata.name", "monitoring"));
            });
            policy.getSpec().getEgress().stream().filter(rule -> rule.getPorts().stream().anyMatch(port -> port.getPort().getIntVal() == 6379))
                    .forEach(gcs -> assertThat(gcs.getTo()).as("the GCS port of Ray head pods only").singleElement().satisfies(peer ->
                            assertThat(peer.getPodSelector().getMatchLabels()).containsExactly(Map.entry("ray.io/node-type", "head"))));
            egress.put(Chart.Rendering.component(policy), policy.getSpec().getEgress().stream().flatMap(rule -> rule.getPorts().stream())
                    .map(NetworkPolicyPort::getPort).map(port -> port.getIntVal()).collect(Collectors.toCollection(TreeSet::new)));
        }
        assertThat(egress).containsOnlyKeys(Chart.COMPONENTS);
        assertThat(egress.get("scaling-planner")).containsExactly(53, 9092, 9093);
        assertThat(egress.get("demand-collector")).containsExactly(53, 443, 6379, 6443, 9092, 9093);
        assertThat(egress.get("k8s-actuator")).isEqualTo(egress.get("demand-collector"));
    }

    @Test
    void operationsObjectsComeWhenAskedForWithTheShippedAlertsDashboardAndAuditRetention() throws Exception {
        assertThat(render(SET_DEFAULTS).all(GenericKubernetesResource.class)).as("nothing of Prometheus Operator or Strimzi by default").isEmpty();
        Chart.Rendering rendering = render("operations");
        Map<String, GenericKubernetesResource> byKind = new TreeMap<>();
        List<GenericKubernetesResource> topics = rendering.all(GenericKubernetesResource.class).stream()
                .filter(resource -> resource.getKind().equals("KafkaTopic")).toList();
        rendering.all(GenericKubernetesResource.class).forEach(resource -> byKind.putIfAbsent(resource.getKind(), resource));
        assertThat(byKind).containsOnlyKeys("ServiceMonitor", "PrometheusRule", "KafkaTopic", "KafkaUser");
        assertThat(rendering.all(GenericKubernetesResource.class).stream().filter(resource -> resource.getKind().equals("KafkaUser"))
                .filter(user -> user.getMetadata().getName().equals("audit-job"))).singleElement().satisfies(reader -> assertThat(
                        new ObjectMapper().valueToTree(reader.getAdditionalProperties().get("spec")).at("/authorization/acls").toString())
                        .contains("\"Read\"").doesNotContain("Write"));

        ObjectMapper json = new ObjectMapper();
        JsonNode rule = json.valueToTree(byKind.get("PrometheusRule").getAdditionalProperties().get("spec"));
        JsonNode shipped = new ObjectMapper(new YAMLFactory())
                .readTree(Chart.DIRECTORY.resolve("files/alerts.yaml").toFile());
        assertThat(rule).isEqualTo(shipped);
        assertThat(rule.findValues("alert")).extracting(JsonNode::asText).containsExactlyInAnyOrder("RayscaleDeadLettersGrowing",
                "RayscaleGcsUnreachable", "RayscaleClustersNotFullyServed", "RayscaleKubernetesUnwatched", "RayscalePodsWaitingForNodes", "RayscaleDecisionsFailing", "RayscaleConsumerLag",
                "RayscaleDecisionsRefused", "RayscaleDecisionsMostlySuperseded");

        ConfigMap dashboard = rendering.all(ConfigMap.class).stream().filter(map -> map.getData().containsKey("rayscale.json")).findFirst()
                .orElseThrow();
        assertThat(dashboard.getMetadata().getLabels()).containsEntry("grafana_dashboard", "1");
        assertThat(json.readTree(dashboard.getData().get("rayscale.json")))
                .isEqualTo(json.readTree(Chart.DIRECTORY.resolve("files/grafana-dashboard.json").toFile()));

        Map<String, Map<String, Object>> configs = new TreeMap<>();
        topics.forEach(topic -> configs.put(topic.getMetadata().getName(), config(topic)));
        assertThat(configs).containsOnlyKeys("rayscale.snapshots", "rayscale.decisions", "rayscale.actuations",
                "rayscale.scaling-planner.dlq", "rayscale.k8s-actuator.dlq");
        configs.forEach((name, config) -> assertThat(config).as(name).containsEntry("cleanup.policy", "delete"));
        assertThat(configs.get("rayscale.snapshots")).containsEntry("retention.ms", String.valueOf(7L * 86_400_000));
        assertThat(configs.get("rayscale.decisions")).containsEntry("retention.ms", String.valueOf(30L * 86_400_000));
        assertThat(rendering.all(NetworkPolicy.class)).allSatisfy(policy -> assertThat(policy.getSpec().getIngress().get(0).getFrom())
                .singleElement().satisfies(peer -> assertThat(peer.getNamespaceSelector()).isNotNull()));
    }

    @Test
    void valuesThatCannotWorkAreRefusedByTheSchema() {
        assertThatThrownBy(() -> Chart.render(null, Map.of("kafka.securityProtocol", "PLAINTEXT"))).hasMessageContaining("allowPlaintext");
        assertThatThrownBy(() -> Chart.render(null, Map.of("image.digests.k8s-actuator", "latest"))).hasMessageContaining("digests");
        assertThatThrownBy(() -> Chart.render(null, Map.of("image.flavor", "wasm"))).hasMessageContaining("flavor");
        assertThatThrownBy(() -> Chart.render(null, Map.of("kafka.securityProtocol", "TLS"))).hasMessageContaining("securityProtocol");
        assertThatThrownBy(() -> Chart.render(null, Map.of("demandCollector.replicas", "-1"))).hasMessageContaining("replicas");
    }

    private static Chart.Rendering render(String valueSet) {
        return Chart.render(valueSet.equals(SET_DEFAULTS) ? null : valueSet);
    }

    private static void assertPlannerHasNoKubernetesAccess(Chart.Rendering rendering) {
        ServiceAccount planner = rendering.all(ServiceAccount.class).stream()
                .filter(account -> Chart.Rendering.component(account).equals("scaling-planner")).findFirst().orElseThrow();
        assertThat(planner.getAutomountServiceAccountToken()).isFalse();
        assertThat(rendering.pods().get("scaling-planner").getAutomountServiceAccountToken()).isFalse();
        assertThat(rendering.yaml()).doesNotContain("name: " + Chart.RELEASE + "-scaling-planner\n    namespace: " + Chart.NAMESPACE + "\n---");
        assertThat(rendering.all(ClusterRoleBinding.class)).noneMatch(binding -> Chart.Rendering.component(binding).equals("scaling-planner"));
        assertThat(rendering.all(RoleBinding.class)).noneMatch(binding -> Chart.Rendering.component(binding).equals("scaling-planner"));
    }

    private static Map<String, Set<String>> grants(List<PolicyRule> rules) {
        Map<String, Set<String>> grants = new TreeMap<>();
        for (PolicyRule rule : rules) {
            for (String group : rule.getApiGroups()) {
                for (String resource : rule.getResources()) {
                    grants.computeIfAbsent(resource + "." + group, key -> new TreeSet<>()).addAll(rule.getVerbs());
                }
            }
        }
        return grants;
    }

    private static Map<String, Map<String, Set<String>>> withoutEmpty(Map<String, Map<String, Set<String>>> services) {
        Map<String, Map<String, Set<String>>> granted = new TreeMap<>(services);
        granted.values().removeIf(Map::isEmpty);
        return granted;
    }

    private static Optional<String> env(Container container, String name) {
        return container.getEnv().stream().filter(variable -> variable.getName().equals(name)).map(EnvVar::getValue).findFirst();
    }

    private static String secretRef(Container container, String name) {
        var ref = container.getEnv().stream().filter(variable -> variable.getName().equals(name)).findFirst().orElseThrow()
                .getValueFrom().getSecretKeyRef();
        return ref.getName() + "/" + ref.getKey();
    }

    /** The brokers' CA, as both value sets name it: Strimzi's cluster CA Secret, PEM. */
    private static void assertTruststoreMounted(PodSpec pod, Container container) {
        assertMounted(pod, container, env(container, "KAFKA_SSL_TRUSTSTORE_LOCATION").orElseThrow(), "rayscale-cluster-ca-cert", "ca.crt");
        assertThat(env(container, "KAFKA_SSL_TRUSTSTORE_TYPE")).contains("PEM");
    }

    /** The file at {@code location} is the key of the Secret, mounted read-only. */
    private static void assertMounted(PodSpec pod, Container container, String location, String secret, String key) {
        Path file = Path.of(location);
        var mount = container.getVolumeMounts().stream().filter(m -> Path.of(m.getMountPath()).equals(file.getParent())).findFirst()
                .orElseThrow(() -> new AssertionError("nothing mounted at " + file.getParent()));
        assertThat(mount.getReadOnly()).isTrue();
        assertThat(file.getFileName().toString()).isEqualTo(key);
        assertThat(pod.getVolumes()).filteredOn(volume -> volume.getName().equals(mount.getName())).singleElement()
                .satisfies(volume -> assertThat(volume.getSecret().getSecretName()).isEqualTo(secret));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> config(GenericKubernetesResource topic) {
        return (Map<String, Object>) ((Map<String, Object>) topic.getAdditionalProperties().get("spec")).get("config");
    }
}
