package dev.rayscale.collector;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.ByteString;
import dev.rayscale.collector.assembly.ResourceRequests;
import dev.rayscale.events.ResourceConstraint;
import dev.rayscale.events.codec.EventJson;
import dev.rayscale.gcs.RayKv;
import dev.rayscale.gcs.proto.InternalKVGetReply;
import dev.rayscale.gcs.proto.InternalKVGetRequest;
import dev.rayscale.gcs.proto.InternalKVPutRequest;
import dev.rayscale.gcs.proto.MutinyInternalKVGcsServiceGrpc;
import io.grpc.Channel;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * What the collector reads and writes in a GCS's key-value store ({@code ray.rpc.InternalKVGcsService}):
 * <ul>
 *   <li>the {@code request_resources} floor ({@code autoscaler_resource_request}), every 5 s or when the GCS's own
 *       constraint changed ({@link ClusterObserver}): Ray writes it there on every call, on either client path, while only
 *       the v2 path also gives it to the GCS (fact D48);</li>
 *   <li>when a GCS process is checked: the Ray version its head recorded ({@code CLUSTER_METADATA}), and the client switch
 *       ({@code __autoscaler_v2_enabled}), set to "1" unless switched off. With it, every Ray client that reads it (a
 *       {@code ray status} command, a driver or dashboard started from then on) takes the v2 path, where {@code ray status}
 *       shows what Rayscale reported to the GCS and {@code request_resources} reaches the GCS too; without it, a cluster whose
 *       in-tree autoscaling is off answers "0" (its GCS writes its own config there at every start) and its clients take the
 *       v1 path, which shows only the head's read-only monitor (D47, D49; docs/ray-versions.md, "ray status").</li>
 * </ul>
 * A tenant's cluster answers these, so what is read is bounded: {@link #MAX_VALUE_BYTES} a value.
 */
final class RayKvClient {

    /** The largest KV value read: a request_resources of 100,000 bundles is about 5 MiB of JSON; a version record far less. */
    static final int MAX_VALUE_BYTES = 8 * 1024 * 1024;
    private static final Logger LOG = Logger.getLogger(RayKvClient.class);
    private static final ByteString ON = ByteString.copyFromUtf8("1");

    /**
     * The floor as the KV holds it.
     *
     * @param constraints what the latest request_resources call asked for (empty: nothing); null when the KV could not be
     *     read or its value not be used, and the GCS's own constraint stands
     * @param problem why the value could not be used; null if it could, or there was none
     */
    record Requests(List<ResourceConstraint> constraints, String problem) {

        static final Requests UNREAD = new Requests(null, null);
    }

    private final Duration deadline;
    private final boolean setSwitch;
    private final CollectorMetrics metrics;

    RayKvClient(Duration deadline, boolean setSwitch, CollectorMetrics metrics) {
        this.deadline = deadline;
        this.setSwitch = setSwitch;
        this.metrics = metrics;
    }

    /** The request_resources floor; never fails: a KV that cannot be read leaves the GCS's constraint in force. */
    Uni<Requests> requests(Channel channel) {
        return get(channel, RayKv.RESOURCE_REQUEST).map(reply -> {
            if (reply.getStatus().getCode() == RayKv.NOT_FOUND) {
                return new Requests(List.of(), null);
            }
            if (reply.getStatus().getCode() != 0) {
                return Requests.UNREAD;
            }
            try {
                return new Requests(ResourceRequests.parse(reply.getValue().toStringUtf8()), null);
            } catch (IllegalArgumentException unusable) {
                return new Requests(null, unusable.getMessage());
            }
        }).onFailure().recoverWithItem(Requests.UNREAD);
    }

    /**
     * Checks a GCS process: reads the Ray version its head recorded and, if {@code serviceServed} and the switch is on,
     * sets the client switch to "1" where it is not. Never fails: what cannot be read is null.
     */
    Uni<String> check(Channel channel, boolean serviceServed) {
        Uni<String> version = get(channel, RayKv.CLUSTER_METADATA)
                .map(reply -> reply.getStatus().getCode() == 0 ? recordedVersion(reply.getValue().toStringUtf8()) : null)
                .onFailure().recoverWithItem(failure -> null);
        if (!setSwitch || !serviceServed) {
            return version;
        }
        Uni<Void> switched = get(channel, RayKv.AUTOSCALER_V2_ENABLED).chain(reply -> {
            if (reply.getStatus().getCode() == 0 && reply.getValue().equals(ON)) {
                return Uni.createFrom().voidItem();
            }
            return stub(channel).internalKVPut(InternalKVPutRequest.newBuilder().setNamespace(RayKv.AUTOSCALER_V2_ENABLED.namespaceBytes())
                    .setKey(RayKv.AUTOSCALER_V2_ENABLED.keyBytes()).setValue(ON).setOverwrite(true).build())
                    .invoke(put -> metrics.clientSwitchSet()).replaceWithVoid();
        }).onFailure().invoke(failure -> LOG.debugf("could not set Ray's client switch: %s", failure.getMessage()))
                .onFailure().recoverWithNull();
        return Uni.combine().all().unis(version, switched).asTuple().map(both -> both.getItem1());
    }

    private Uni<InternalKVGetReply> get(Channel channel, RayKv.Key key) {
        return stub(channel).internalKVGet(InternalKVGetRequest.newBuilder().setNamespace(key.namespaceBytes()).setKey(key.keyBytes()).build());
    }

    private MutinyInternalKVGcsServiceGrpc.MutinyInternalKVGcsServiceStub stub(Channel channel) {
        return MutinyInternalKVGcsServiceGrpc.newMutinyStub(channel).withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS)
                .withMaxInboundMessageSize(MAX_VALUE_BYTES);
    }

    /** {@code ray_version} of the head's {@code CLUSTER_METADATA} JSON; null if it has none that reads as text. */
    private static String recordedVersion(String json) {
        try {
            JsonNode version = EventJson.mapper().readTree(json).path("ray_version");
            return version.isTextual() && !version.asText().isBlank() && version.asText().length() <= 64 ? version.asText().trim() : null;
        } catch (JsonProcessingException unreadable) {
            return null;
        }
    }
}
