package dev.rayscale.sim;

import com.google.protobuf.ByteString;
import dev.rayscale.gcs.RayKv;
import java.util.HashMap;
import java.util.Map;

/**
 * One GCS process's internal key-value store ({@code InternalKVGcsService}), in memory as on a GCS without Redis: a
 * restarted GCS starts empty (fact A1.3). At start the GCS writes the autoscaler switch from its own config, overwriting
 * ({@code GcsServer::InitGcsAutoscalerStateManager}: {@code std::to_string(enable_autoscaler_v2)}, default false, fact D47),
 * and the head records its Ray version ({@code put_cluster_metadata}). Guarded by {@link RaySim}'s lock.
 */
final class GcsKv {

    private final Map<RayKv.Key, ByteString> values = new HashMap<>();

    /** A new GCS process of {@code release}: an empty store, then what the GCS and the head write as they start. */
    void start(RayRelease release) {
        values.clear();
        if (release.hasV2ClientPath()) {
            // RayConfig enable_autoscaler_v2 is false by default, and KubeRay refuses RAY_enable_autoscaler_v2 on a cluster
            // whose in-tree autoscaling is off (D49), as every cluster Rayscale scales is.
            put(RayKv.AUTOSCALER_V2_ENABLED, ByteString.copyFromUtf8("0"), true);
        }
        put(RayKv.CLUSTER_METADATA, ByteString.copyFromUtf8("{\"ray_version\": \"" + release + "\", \"python_version\": \"3.11.11\"}"), true);
    }

    /** The value, or null for a missing key (answered as NotFound, {@link RayKv#NOT_FOUND}). */
    ByteString get(RayKv.Key key) {
        return values.get(key);
    }

    String text(RayKv.Key key) {
        ByteString value = values.get(key);
        return value == null ? null : value.toStringUtf8();
    }

    /** {@code HandleInternalKVPut}: true if the key was new; an existing key is replaced only with {@code overwrite}. */
    boolean put(RayKv.Key key, ByteString value, boolean overwrite) {
        boolean added = !values.containsKey(key);
        if (added || overwrite) {
            values.put(key, value);
        }
        return added;
    }

    /** {@code is_autoscaler_v2()} of a client process that reads the switch now: only {@code b"1"} means v2. */
    boolean autoscalerV2() {
        return "1".equals(text(RayKv.AUTOSCALER_V2_ENABLED));
    }
}
