package dev.rayscale.events;

/**
 * Which planner made a decision, so that a replay can tell a difference caused by code from one
 * caused by configuration.
 *
 * @param version the planner's version
 * @param policyHash a hash of the effective policy (snapshot policy merged with the planner's defaults)
 * @param defaults the planner's own defaults in force, which a replay needs to plan with the same policy;
 *     absent in decisions recorded before it was written
 */
public record PlannerInfo(String version, String policyHash, PlannerDefaults defaults) {

    public PlannerInfo {
        Fields.requiredText(version, "planner.version");
        Fields.requiredText(policyHash, "planner.policyHash");
    }

    public PlannerInfo(String version, String policyHash) {
        this(version, policyHash, null);
    }
}
