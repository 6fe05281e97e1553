package dev.rayscale.sim;

import dev.rayscale.events.ReleaseVersion;

/**
 * What a Ray release does where releases differ, for the parts Rayscale touches. Read in ray-project/ray's history (the
 * shared fact sheet, D47-D55, and the pull requests named); the store holds no tagged release trees, so each boundary is
 * the release a change most likely first shipped in, by the dates of its pull request, and where that could not be settled
 * the boundary is put where Rayscale is the more careful:
 * <ul>
 *   <li><b>2.7</b>: the GCS serves {@code ray.rpc.autoscaler.AutoscalerStateService} (PRs 35596, 36768, mid-2023; 2.6 is
 *       unsettled and modelled without it), {@code is_autoscaler_v2()} reads the KV switch and {@code ray status} has its
 *       v2 path ({@code GetClusterStatus}, PR 37473, July 2023), and {@code DrainNode} exists with the draft numbering
 *       {@code IDLE_TERMINATION = 0, PREEMPTION = 1} and no rejection message (PR 37836).</li>
 *   <li><b>2.10</b>: {@code DrainNodeReason} is renumbered {@code UNSPECIFIED 0, IDLE_TERMINATION 1, PREEMPTION 2}, with
 *       {@code rejection_reason_message} (in place by PR 43189, February 2024; 2.8 and 2.9 are modelled with the draft).</li>
 *   <li><b>2.49</b>: nodes carry {@code NodeState.labels} with Ray's default labels ({@code ray.io/node-id}; {@code
 *       ray.io/node-group} from {@code RAY_NODE_TYPE_NAME}, PR 53360), pending demand carries label selectors, placement
 *       groups one bundle selector each (PRs 53578, 55106), and {@code request_resources} writes
 *       {@code {"resources": ..., "label_selector": ...}} entries to the KV (PR 54843).</li>
 *   <li><b>2.49 to 2.53</b>: the head's read-only v1 monitor cannot read those entries and stops (ray-project/ray issues
 *       59677 and 61673, on 2.52.1; fixed by PR 59850, January 2026): {@code ray status} on the v1 path shows its last
 *       status and the error.</li>
 * </ul>
 */
public record RayRelease(ReleaseVersion version) {

    /** The Ray the simulator runs unless told otherwise: the newest behaviour modelled. */
    public static final String CURRENT = "2.54.0";

    private static final ReleaseVersion AUTOSCALER_STATE = ReleaseVersion.of(2, 7);
    private static final ReleaseVersion DRAIN_RENUMBERED = ReleaseVersion.of(2, 10);
    private static final ReleaseVersion LABELS = ReleaseVersion.of(2, 49);
    private static final ReleaseVersion V1_MONITOR_FIXED = ReleaseVersion.of(2, 54);

    public static RayRelease of(String version) {
        return new RayRelease(ReleaseVersion.parse(version)
                .orElseThrow(() -> new IllegalArgumentException("not a Ray version: " + version)));
    }

    /** The GCS serves the autoscaler state service; without it every call of it answers UNIMPLEMENTED. */
    public boolean servesAutoscalerState() {
        return version.atLeast(AUTOSCALER_STATE);
    }

    /** {@code is_autoscaler_v2()} and {@code GetClusterStatus} exist: a client can take the v2 path. */
    public boolean hasV2ClientPath() {
        return version.atLeast(AUTOSCALER_STATE);
    }

    /** {@code DrainNode} reads reason 0 as IDLE_TERMINATION and 1 as PREEMPTION, and says nothing when it refuses. */
    public boolean draftDrainReasons() {
        return !version.atLeast(DRAIN_RENUMBERED);
    }

    /** Nodes carry Ray's default labels, and demand carries label selectors (bundle selectors for placement groups). */
    public boolean labels() {
        return version.atLeast(LABELS);
    }

    /** {@code request_resources} writes {@code {"resources", "label_selector"}} entries rather than bare bundles. */
    public boolean resourceRequestsWithSelectors() {
        return version.atLeast(LABELS);
    }

    /** The read-only v1 monitor stops at the first request written with selectors (issue 59677). */
    public boolean v1MonitorFailsOnSelectorRequests() {
        return version.atLeast(LABELS) && !version.atLeast(V1_MONITOR_FIXED);
    }

    @Override
    public String toString() {
        return version.toString();
    }
}
