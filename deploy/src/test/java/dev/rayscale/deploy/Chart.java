package dev.rayscale.deploy;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.TemplateCommand;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The chart at deploy/helm/rayscale rendered by Helm (its Go library, through helm-java) into fabric8 objects. */
final class Chart {

    static final Path DIRECTORY = Path.of("helm", "rayscale").toAbsolutePath();
    static final String RELEASE = "rayscale";
    static final String NAMESPACE = "rayscale-system";
    static final List<String> COMPONENTS = List.of("demand-collector", "scaling-planner", "k8s-actuator");

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private Chart() {
    }

    static Helm helm() {
        return new Helm(DIRECTORY);
    }

    /** The chart rendered with a values file of src/test/resources/values (null: the defaults), and --set pairs. */
    static Rendering render(String valueSet, Map<String, Object> set) {
        TemplateCommand template = helm().template().withName(RELEASE).withNamespace(NAMESPACE);
        if (valueSet != null) {
            template = template.withValuesFile(Path.of("src", "test", "resources", "values", valueSet + ".yaml").toAbsolutePath());
        }
        for (Map.Entry<String, Object> entry : set.entrySet()) {
            template = template.set(entry.getKey(), entry.getValue());
        }
        String yaml = template.call();
        return new Rendering(yaml, SERIALIZATION.unmarshal(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))));
    }

    static Rendering render(String valueSet) {
        return render(valueSet, Map.of());
    }

    /** What Helm printed and the objects in it. */
    record Rendering(String yaml, List<HasMetadata> objects) {

        <T extends HasMetadata> List<T> all(Class<T> type) {
            return objects.stream().filter(type::isInstance).map(type::cast).toList();
        }

        /** The pod spec of each component, by component name. */
        Map<String, PodSpec> pods() {
            Map<String, PodSpec> pods = new TreeMap<>();
            all(Deployment.class).forEach(deployment -> pods.put(component(deployment), deployment.getSpec().getTemplate().getSpec()));
            all(StatefulSet.class).forEach(set -> pods.put(component(set), set.getSpec().getTemplate().getSpec()));
            return pods;
        }

        Container container(String component) {
            return pods().get(component).getContainers().get(0);
        }

        static String component(HasMetadata object) {
            return object.getMetadata().getLabels().get("app.kubernetes.io/name");
        }
    }
}
