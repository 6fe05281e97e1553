package dev.rayscale.gcs;

import com.google.protobuf.ByteString;

/**
 * Keys of the GCS's internal key-value store ({@code InternalKVGcsService}) that Ray's clients read or write and that
 * Rayscale and its simulator use, with their namespaces as Ray writes them (the empty namespace is {@code namespace=None}
 * in Python, sent as empty bytes).
 */
public final class RayKv {

    /** A key in a namespace. */
    public record Key(String namespace, String key) {

        public ByteString namespaceBytes() {
            return ByteString.copyFromUtf8(namespace);
        }

        public ByteString keyBytes() {
            return ByteString.copyFromUtf8(key);
        }
    }

    /**
     * Which path {@code ray status} and {@code request_resources} take in a client process that does not set
     * {@code RAY_enable_autoscaler_v2}: only the value {@code "1"} means v2 ({@code is_autoscaler_v2()}, fact D47). The GCS
     * writes it from its own config at every start, overwriting ({@code GcsServer::InitGcsAutoscalerStateManager}).
     */
    public static final Key AUTOSCALER_V2_ENABLED = new Key("__autoscaler", "__autoscaler_v2_enabled");
    /** What {@code request_resources()} writes on every call, whichever path (fact D48): a JSON list of bundles. */
    public static final Key RESOURCE_REQUEST = new Key("", "autoscaler_resource_request");
    /** What the head's v1 monitor writes each loop and {@code ray status} formats on the v1 path. */
    public static final Key AUTOSCALING_STATUS = new Key("", "__autoscaling_status");
    /** What {@code ray status} appends on either path when set: the v1 monitor's failure. */
    public static final Key AUTOSCALING_ERROR = new Key("", "__autoscaling_error");
    /** JSON the head writes at start with at least {@code ray_version} and {@code python_version} ({@code put_cluster_metadata}). */
    public static final Key CLUSTER_METADATA = new Key("cluster", "CLUSTER_METADATA");

    /** {@code StatusCode::NotFound} in Ray's {@code src/ray/common/status.h}: what a Get of a missing key answers. */
    public static final int NOT_FOUND = 17;

    private RayKv() {
    }
}
