package dev.rayscale.events;

/**
 * Which planner made a decision, so that a replay can tell a difference caused by code from one
 * caused by configuration.
 *
 * @param version the planner's version
 * @param policyHash a hash of the effective policy (snapshot policy merged with the planner's defaults)
 */
public record PlannerInfo(String version, String policyHash) {

    public PlannerInfo {
        Fields.requiredText(version, "planner.version");
        Fields.requiredText(policyHash, "planner.policyHash");
    }
}
