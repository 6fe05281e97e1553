package dev.rayscale.collector;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/** Live while the poller makes progress ({@link PollerProgress}); a wedged one is restarted by Kubernetes. */
@Liveness
@ApplicationScoped
public class PollerLiveness implements HealthCheck {

    private final ClusterPoller poller;

    public PollerLiveness(ClusterPoller poller) {
        this.poller = poller;
    }

    @Override
    public HealthCheckResponse call() {
        String wedged = poller.wedged();
        return HealthCheckResponse.named("GCS poller").status(wedged == null).withData("problem", wedged == null ? "none" : wedged).build();
    }
}
