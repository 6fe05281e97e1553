package dev.rayscale.clients;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.DeserializationProblemHandler;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * Enum values a newer KubeRay writes that this model does not know. They read as absent, which means the field's default
 * (an unknown {@code upscalingMode} reads as {@code Default}, an unknown {@code authOptions.mode} as no authentication), so
 * each is remembered with the object it was read in, for the service to tell the object's owners what it read differently.
 *
 * <p>Objects are told apart by namespace and name, and a record holds only for the resourceVersion it was read at: an
 * object read again after an edit counts as clean until an unknown value is met in it again; the service forgets a
 * deleted object's record. The object is found among the values being read around the field, so it must have its
 * {@code metadata} read before the field, as the API server writes it; a value met anywhere else reads as absent all the
 * same, and is not remembered.
 */
public final class UnknownEnumValues extends DeserializationProblemHandler {

    /** A field holding a value its enum does not have; {@code field} is its path within the object, as {@code spec.a.b[0].c}. */
    public record Unknown(String field, String value) {

        @Override
        public String toString() {
            return field + "='" + value + "'";
        }
    }

    private record Read(String resourceVersion, List<Unknown> unknowns) {

        Read with(Unknown unknown) {
            return unknowns.contains(unknown) ? this
                    : new Read(resourceVersion, Stream.concat(unknowns.stream(), Stream.of(unknown)).toList());
        }
    }

    private final Map<String, Read> byObject = new ConcurrentHashMap<>();

    @Override
    public Object handleWeirdStringValue(DeserializationContext context, Class<?> targetType, String value, String failure) {
        if (!targetType.isEnum()) {
            return NOT_HANDLED;
        }
        remember(context.getParser(), value);
        return null;
    }

    /** The unknown values read in {@code object} as it is now (at its resourceVersion); none if it had none. */
    public List<Unknown> in(HasMetadata object) {
        ObjectMeta metadata = object.getMetadata();
        Read read = metadata == null ? null : byObject.get(key(metadata));
        return read != null && Objects.equals(read.resourceVersion(), metadata.getResourceVersion()) ? read.unknowns() : List.of();
    }

    /** Forgets what was read in {@code object}, deleted. */
    public void forget(HasMetadata object) {
        byObject.remove(key(object.getMetadata()));
    }

    private void remember(JsonParser parser, String value) {
        Deque<String> segments = new ArrayDeque<>();
        for (JsonStreamContext context = parser.getParsingContext(); context != null; context = context.getParent()) {
            if (context.inArray()) {
                segments.push("[" + Math.max(context.getCurrentIndex(), 0) + "]");
            } else if (context.getCurrentName() != null) {
                segments.push(context.getCurrentName());
            }
            if (context.getCurrentValue() instanceof HasMetadata owner && owner.getMetadata() != null && owner.getMetadata().getName() != null) {
                remember(owner.getMetadata(), new Unknown(path(segments), value));
                return;
            }
        }
    }

    private void remember(ObjectMeta metadata, Unknown unknown) {
        byObject.compute(key(metadata), (key, read) -> read == null || !Objects.equals(read.resourceVersion(), metadata.getResourceVersion())
                ? new Read(metadata.getResourceVersion(), List.of(unknown)) : read.with(unknown));
    }

    private static String path(Deque<String> segments) {
        StringBuilder path = new StringBuilder();
        segments.forEach(segment -> path.append(path.isEmpty() || segment.startsWith("[") ? "" : ".").append(segment));
        return path.toString();
    }

    private static String key(ObjectMeta metadata) {
        return metadata.getNamespace() + "/" + metadata.getName();
    }
}
