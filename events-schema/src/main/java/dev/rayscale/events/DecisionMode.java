package dev.rayscale.events;

/** How far the planner went for a decision. */
public enum DecisionMode {
    /** Every step was planned: demand placed, idle nodes removed, limits applied. */
    ACTIVE,
    /** The cluster's state was not known well enough to scale on: its size is held, minReplicas still apply. */
    HOLD,
    /**
     * The cluster's policy suspends Rayscale, its Ray or KubeRay cannot be served safely, or KubeRay is not acting on its
     * spec: nothing changes.
     */
    FROZEN
}
