package dev.rayscale.collector.assembly;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import dev.rayscale.events.Quantity;
import dev.rayscale.events.Quoted;
import dev.rayscale.events.Resources;
import dev.rayscale.events.codec.EventJson;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The resources and labels of one node of a group, derived as Ray derives them on KubeRay:
 * <ul>
 *   <li>CPU: {@code rayStartParams.num-cpus}, else the Ray container's {@code limits.cpu}, else its
 *       {@code requests.cpu}, rounded up to whole CPUs;</li>
 *   <li>GPU: {@code num-gpus}, else the first limit (then request) whose name ends in {@code gpu},
 *       such as {@code nvidia.com/gpu};</li>
 *   <li>TPU: {@code google.com/tpu} from limits or requests;</li>
 *   <li>memory: {@code memory}, else {@code limits.memory}, else {@code requests.memory}, in bytes;</li>
 *   <li>custom resources from the {@code resources} parameter (a JSON object), then the group's own
 *       {@code resources} field (KubeRay 1.5+), which wins;</li>
 *   <li>labels: Ray's defaults first, then the {@code labels} parameter ({@code k=v,k2=v2} or JSON), then the group's own
 *       {@code labels} field, each later one winning, as Ray resolves them ({@code _resolve_labels}). Ray's defaults
 *       ({@code _get_default_labels}, fact D53) come from the environment: {@code ray.io/node-group} from
 *       {@code RAY_NODE_TYPE_NAME}, which KubeRay sets to the group's name, and {@code ray.io/market-type},
 *       {@code ray.io/availability-region} and {@code ray.io/availability-zone} from {@code RAY_NODE_MARKET_TYPE},
 *       {@code RAY_NODE_REGION} and {@code RAY_NODE_ZONE} when the template sets them. So demand that selects them can
 *       scale a group up from zero, as it could not with Ray's own autoscaler, which gives a node type only its configured
 *       labels.</li>
 * </ul>
 * The Ray container is the pod template's first container.
 */
public record NodeShape(Resources resources, Map<String, String> labels) {

    /** Ray's default node label keys ({@code src/ray/common/constants.h}). */
    public static final String NODE_GROUP_LABEL = "ray.io/node-group";
    private static final Map<String, String> LABELS_FROM_ENV = Map.of("RAY_NODE_MARKET_TYPE", "ray.io/market-type",
            "RAY_NODE_REGION", "ray.io/availability-region", "RAY_NODE_ZONE", "ray.io/availability-zone");

    private static final TypeReference<Map<String, Object>> JSON_OBJECT = new TypeReference<>() { };

    /** @param group the group's name, which KubeRay puts in {@code RAY_NODE_TYPE_NAME} ({@code headgroup} for the head) */
    public static NodeShape of(String group, Map<String, String> rayStartParams, PodTemplateSpec template,
            Map<String, String> groupResources, Map<String, String> groupLabels) {
        Map<String, String> params = rayStartParams == null ? Map.of() : rayStartParams;
        ResourceRequirements container = rayContainer(template);
        Map<String, Quantity> amounts = new TreeMap<>();
        param(params, "num-cpus").or(() -> k8s(container, "cpu").map(NodeShape::roundUp))
                .ifPresent(cpu -> amounts.put("CPU", cpu));
        param(params, "num-gpus").or(() -> gpu(container)).ifPresent(gpu -> amounts.put("GPU", gpu));
        k8s(container, "google.com/tpu").ifPresent(tpu -> amounts.put("TPU", tpu));
        param(params, "memory").or(() -> k8s(container, "memory")).ifPresent(memory -> amounts.put("memory", memory));
        customResources(params.get("resources")).forEach(amounts::put);
        if (groupResources != null) {
            groupResources.forEach((name, value) -> amounts.put(name, kubernetesQuantity(value)));
        }
        Map<String, String> labels = new TreeMap<>(defaultLabels(group, template));
        labels.putAll(parseLabels(params.get("labels")));
        if (groupLabels != null) {
            labels.putAll(groupLabels);
        }
        return new NodeShape(Resources.of(amounts), labels);
    }

    private static Map<String, String> defaultLabels(String group, PodTemplateSpec template) {
        Map<String, String> labels = new TreeMap<>();
        labels.put(NODE_GROUP_LABEL, group);
        if (template != null && template.getSpec() != null && template.getSpec().getContainers() != null
                && !template.getSpec().getContainers().isEmpty() && template.getSpec().getContainers().get(0).getEnv() != null) {
            for (EnvVar variable : template.getSpec().getContainers().get(0).getEnv()) {
                String label = LABELS_FROM_ENV.get(variable.getName());
                if (label != null && variable.getValue() != null && !variable.getValue().isBlank()) {
                    labels.put(label, variable.getValue().trim());
                }
            }
        }
        return labels;
    }

    private static ResourceRequirements rayContainer(PodTemplateSpec template) {
        if (template == null || template.getSpec() == null || template.getSpec().getContainers() == null
                || template.getSpec().getContainers().isEmpty()) {
            return new ResourceRequirements();
        }
        Container container = template.getSpec().getContainers().get(0);
        return container.getResources() == null ? new ResourceRequirements() : container.getResources();
    }

    private static Optional<Quantity> param(Map<String, String> params, String name) {
        String value = params.get(name);
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(Quantity.parse(unquote(value)));
    }

    private static Optional<Quantity> k8s(ResourceRequirements requirements, String name) {
        return amount(requirements.getLimits(), name).or(() -> amount(requirements.getRequests(), name));
    }

    private static Optional<Quantity> amount(Map<String, io.fabric8.kubernetes.api.model.Quantity> quantities, String name) {
        if (quantities == null || !quantities.containsKey(name)) {
            return Optional.empty();
        }
        return Optional.of(kubernetesAmount(quantities.get(name)));
    }

    private static Optional<Quantity> gpu(ResourceRequirements requirements) {
        return gpuIn(requirements.getLimits()).or(() -> gpuIn(requirements.getRequests()));
    }

    private static Optional<Quantity> gpuIn(Map<String, io.fabric8.kubernetes.api.model.Quantity> quantities) {
        if (quantities == null) {
            return Optional.empty();
        }
        return quantities.keySet().stream().filter(name -> name.endsWith("gpu")).sorted().findFirst()
                .flatMap(name -> amount(quantities, name));
    }

    private static Quantity roundUp(Quantity cpu) {
        return Quantity.of(cpu.ceilWhole());
    }

    private static Quantity kubernetesQuantity(String value) {
        return kubernetesAmount(new io.fabric8.kubernetes.api.model.Quantity(value));
    }

    /**
     * A Kubernetes quantity ({@code 500m}, {@code 40Gi}, {@code 1e3}) as an amount, its text bounded first: the CRD's pattern
     * bounds neither its length nor its exponent, and the tenant writes it.
     */
    private static Quantity kubernetesAmount(io.fabric8.kubernetes.api.model.Quantity quantity) {
        String text = quantity.toString();
        if (text.length() > Quantity.MAX_TEXT) {
            throw new IllegalArgumentException("resource quantity " + Quoted.of(text) + " is longer than " + Quantity.MAX_TEXT
                    + " characters");
        }
        try {
            return Quantity.of(io.fabric8.kubernetes.api.model.Quantity.getAmountInBytes(quantity));
        } catch (ArithmeticException | NumberFormatException notAnAmount) {
            throw new IllegalArgumentException("resource quantity " + Quoted.of(text) + " is not an amount", notAnAmount);
        }
    }

    /** KubeRay passes the resources parameter quoted for the shell: {@code '"{\"TPU\": 4}"'}. */
    static Map<String, Quantity> customResources(String json) {
        if (json == null || json.isBlank()) {
            return Map.of();
        }
        try {
            Map<String, Object> parsed = EventJson.mapper().readValue(unquote(json).replace("\\\"", "\""), JSON_OBJECT);
            Map<String, Quantity> resources = new LinkedHashMap<>();
            parsed.forEach((name, value) -> resources.put(name, Quantity.of(new BigDecimal(value.toString()))));
            return resources;
        } catch (JsonProcessingException | NumberFormatException e) {
            throw new IllegalArgumentException("rayStartParams.resources is not a JSON object of amounts: " + Quoted.of(json), e);
        }
    }

    static Map<String, String> parseLabels(String labels) {
        if (labels == null || labels.isBlank()) {
            return Map.of();
        }
        String text = unquote(labels).replace("\\\"", "\"").trim();
        Map<String, String> parsed = new TreeMap<>();
        if (text.startsWith("{")) {
            try {
                EventJson.mapper().readValue(text, JSON_OBJECT).forEach((key, value) -> parsed.put(key, String.valueOf(value)));
                return parsed;
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException("rayStartParams.labels is not valid JSON: " + Quoted.of(labels), e);
            }
        }
        for (String pair : text.split(",")) {
            int equals = pair.indexOf('=');
            if (equals <= 0) {
                throw new IllegalArgumentException("rayStartParams.labels entry " + Quoted.of(pair) + " is not key=value");
            }
            parsed.put(pair.substring(0, equals).trim(), pair.substring(equals + 1).trim());
        }
        return parsed;
    }

    private static String unquote(String value) {
        String text = value.trim();
        while (text.length() >= 2 && (text.startsWith("'") && text.endsWith("'") || text.startsWith("\"") && text.endsWith("\""))) {
            text = text.substring(1, text.length() - 1).trim();
        }
        return text;
    }
}
