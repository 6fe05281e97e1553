package dev.rayscale.events;

import com.fasterxml.jackson.annotation.JsonIgnore;

/**
 * Names one RayCluster. {@link #id()} ({@code namespace/name}) is the Kafka key of every Rayscale
 * event and the CloudEvents subject; {@code uid} tells a re-created cluster of the same name apart.
 */
public record ClusterRef(String namespace, String name, String uid) {

    public ClusterRef {
        Fields.requiredText(namespace, "cluster.namespace");
        Fields.requiredText(name, "cluster.name");
    }

    /** Parses a {@code namespace/name} key; the uid is unknown from a key alone. */
    public static ClusterRef parse(String id) {
        int slash = id.indexOf('/');
        if (slash <= 0 || slash == id.length() - 1 || id.indexOf('/', slash + 1) >= 0) {
            throw new IllegalArgumentException("cluster id '" + id + "' is not of the form namespace/name");
        }
        return new ClusterRef(id.substring(0, slash), id.substring(slash + 1), null);
    }

    @JsonIgnore
    public String id() {
        return namespace + "/" + name;
    }

    @Override
    public String toString() {
        return id();
    }
}
