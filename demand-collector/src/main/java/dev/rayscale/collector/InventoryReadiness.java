package dev.rayscale.collector;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Ready once the RayCluster and pod informers have synced: before that the collector knows nothing. */
@Readiness
@ApplicationScoped
public class InventoryReadiness implements HealthCheck {

    private final ClusterInventory inventory;
    private final ClusterPoller poller;

    public InventoryReadiness(ClusterInventory inventory, ClusterPoller poller) {
        this.inventory = inventory;
        this.poller = poller;
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("Kubernetes inventory")
                .status(inventory.synced())
                .withData("watching", inventory.watching())
                .withData("clusters", poller.trackedClusters().size())
                .build();
    }
}
