package dev.rayscale.collector;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.ByteString;
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
 *   <li>the {@code request_resources} floor ({@code autoscaler_resource_request}), every heartbeat (5 s) or when the GCS's own
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

    /**
     * The largest KV value read: a request_resources of 100,000 bundles is about 5 MiB of JSON (read as a stream, never
     * held as a tree); a version record far less.
     */
    static final int MAX_VALUE_BYTES = 6 * 1024 * 1024;
    private static final Logger LOG = Logger.getLogger(RayKvClient.class);
    private static final ByteString ON = ByteString.copyFromUtf8("1");

    /**
     * The floor as the KV holds it.
     *
     * @param kind what the read found
     * @param constraints what the latest request_resources call asked for (empty: nothing); READ only
     * @param problem why the value was refused; REFUSED only
     * @param value the hash of the value read (READ), so that an unchanged value is not read again
     */
    record Requests(Kind kind, List<ResourceConstraint> constraints, String problem, int value) {

        enum Kind {
            /** The value was read: it is the floor. */
            READ,
            /** No request_resources call wrote one: the GCS's own constraint is the floor (it has none either, on the v1 path). */
            NOT_WRITTEN,
            /** The KV could not be read: the floor is what it was last read as (unknown is not zero). */
            UNREADABLE,
            /** The value could not be used: the floor is what it was last read as, and the cluster's owners are told why. */
            REFUSED
        }

        static final Requests UNREADABLE = new Requests(Kind.UNREADABLE, null, null, 0);
        static final Requests NOT_WRITTEN = new Requests(Kind.NOT_WRITTEN, null, null, 0);

        /** Whether this read says what the floor is (so it may stand in for the next reads). */
        boolean conclusive() {
            return kind == Kind.READ || kind == Kind.NOT_WRITTEN;
        }
    }

    private final Duration deadline;
    private final boolean setSwitch;
    private final CollectorMetrics metrics;

    RayKvClient(Duration deadline, boolean setSwitch, CollectorMetrics metrics) {
        this.deadline = deadline;
        this.setSwitch = setSwitch;
        this.metrics = metrics;
    }

    /**
     * The request_resources floor; never fails. A value whose hash is {@code unchanged}'s is not parsed again: it is that
     * read.
     */
    Uni<Requests> requests(Channel channel, Requests unchanged) {
        return get(channel, RayKv.RESOURCE_REQUEST).map(reply -> {
            if (reply.getStatus().getCode() == RayKv.NOT_FOUND) {
                return Requests.NOT_WRITTEN;
            }
            if (reply.getStatus().getCode() != 0) {
                return Requests.UNREADABLE;
            }
            int value = reply.getValue().hashCode();
            if (unchanged != null && unchanged.kind() == Requests.Kind.READ && unchanged.value() == value) {
                return unchanged;
            }
            try {
                return new Requests(Requests.Kind.READ, ResourceRequests.parse(reply.getValue().toByteArray()), null, value);
            } catch (IllegalArgumentException unusable) {
                return new Requests(Requests.Kind.REFUSED, null, unusable.getMessage(), value);
            }
        }).onFailure().recoverWithItem(Requests.UNREADABLE);
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
