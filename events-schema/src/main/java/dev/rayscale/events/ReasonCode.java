package dev.rayscale.events;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What a reason of a decision is about: the kind, for dashboards and alerts; the reason's detail says the rest.
 *
 * <p>An open set, as the schema says: a planner newer than this reader may write a code it does not know, and such a
 * reason is read as informational, with its code kept as written ({@link #known()} false), never as an invalid event. The
 * codes this version knows are the constants; a known code read from an event is that constant.
 */
public final class ReasonCode {

    /** Upper-case words joined by underscores, as every code is written. */
    private static final Pattern CODE = Pattern.compile("[A-Z][A-Z0-9_]{0,63}");
    private static final Map<String, ReasonCode> KNOWN = new LinkedHashMap<>();

    /** The cluster's policy suspends Rayscale. */
    public static final ReasonCode SUSPENDED = known("SUSPENDED");
    /** The Ray GCS could not be read: the size is held. */
    public static final ReasonCode GCS_UNREADABLE = known("GCS_UNREADABLE");
    /** The cluster's Ray or KubeRay cannot be served safely (the snapshot's versions say why): nothing is changed. */
    public static final ReasonCode VERSION_UNSUPPORTED = known("VERSION_UNSUPPORTED");
    /** The cluster's Ray or KubeRay allows no safe scale-down: capacity is added, none removed. */
    public static final ReasonCode SCALE_DOWN_UNSAFE = known("SCALE_DOWN_UNSAFE");
    /** The Kubernetes view is stale or unavailable: the size is held. */
    public static final ReasonCode KUBERNETES_UNRELIABLE = known("KUBERNETES_UNRELIABLE");
    /** KubeRay is not acting on the RayCluster's current spec (an invalid spec stops it): nothing is changed. */
    public static final ReasonCode SPEC_NOT_RECONCILED = known("SPEC_NOT_RECONCILED");
    /** A group's target replicas differ from its current ones; the detail says by what and why. */
    public static final ReasonCode REPLICAS_CHANGED = known("REPLICAS_CHANGED");
    /** A group's pods cannot be created (quota, admission): the operator's pod creation fails. */
    public static final ReasonCode LAUNCH_FAILING = known("LAUNCH_FAILING");
    /** Replicas whose pods cannot be created are given back, as no demand waits for them. */
    public static final ReasonCode LAUNCHES_GIVEN_BACK = known("LAUNCHES_GIVEN_BACK");
    /** More workers than the cluster-wide cap: the excess is removed. */
    public static final ReasonCode ABOVE_WORKER_CAP = known("ABOVE_WORKER_CAP");
    /** Pending tasks wait for the upscaling limit: fewer new nodes than they need are asked for now. */
    public static final ReasonCode UPSCALING_LIMITED = known("UPSCALING_LIMITED");
    /** A pod waited for a node longer than the policy's patience and is replaced. */
    public static final ReasonCode STUCK_POD_REPLACED = known("STUCK_POD_REPLACED");
    /** A pod has waited for a node longer than the policy's patience. */
    public static final ReasonCode STUCK_POD_WAITING = known("STUCK_POD_WAITING");
    /** Idle nodes past their idle timeout are removed. */
    public static final ReasonCode IDLE_REMOVED = known("IDLE_REMOVED");
    /** The new nodes were chosen cheaper than Ray's packing would choose them, for the same demand. */
    public static final ReasonCode ECONOMICAL_PACKING = known("ECONOMICAL_PACKING");

    private final String name;
    private final boolean known;

    private ReasonCode(String name, boolean known) {
        this.name = name;
        this.known = known;
    }

    private static ReasonCode known(String name) {
        ReasonCode code = new ReasonCode(name, true);
        KNOWN.put(name, code);
        return code;
    }

    /**
     * The code written {@code name}: the constant if this version knows it, else an informational one of that name.
     *
     * @throws IllegalArgumentException if it is not upper-case words joined by underscores (at most 64 characters)
     */
    @JsonCreator
    public static ReasonCode of(String name) {
        ReasonCode known = KNOWN.get(name);
        if (known != null) {
            return known;
        }
        if (name == null || !CODE.matcher(name).matches()) {
            throw new IllegalArgumentException("a reason code is upper-case words joined by underscores, at most 64 characters: "
                    + Quoted.of(name));
        }
        return new ReasonCode(name, false);
    }

    /** The codes this version knows, in the order they were introduced. */
    public static List<ReasonCode> values() {
        return Collections.unmodifiableList(new ArrayList<>(KNOWN.values()));
    }

    @JsonValue
    public String name() {
        return name;
    }

    /** Whether this version knows the code; an unknown one is informational. */
    public boolean known() {
        return known;
    }

    /** The code as a metric tag value: {@code IDLE_REMOVED} becomes {@code idle_removed}. */
    public String tag() {
        return name.toLowerCase(Locale.ROOT);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ReasonCode code && code.name.equals(name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    @Override
    public String toString() {
        return name;
    }
}
