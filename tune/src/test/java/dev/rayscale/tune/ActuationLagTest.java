package dev.rayscale.tune;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rayscale.audit.EventReader;
import dev.rayscale.audit.FileRecords;
import dev.rayscale.audit.Read;
import dev.rayscale.audit.Selection;
import dev.rayscale.events.ActuationResult;
import dev.rayscale.events.ScaleDecision;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ActuationLagTest {

    /** The walk-through's decisions and results, in the order recorded. */
    private static List<Object> events() throws Exception {
        List<Object> events = new ArrayList<>();
        new FileRecords(Recordings.file("walkthrough"), Selection.ALL).forEachRead(new EventReader(false), read -> {
                    if (read instanceof Read.Event event) {
                        events.add(event.event());
                    }
                });
        return events;
    }

    @Test
    void theMedianOfAppliedResultsAgainstTheirDecisionsWhicheverComesFirst() throws Exception {
        List<Object> events = events();
        ActuationLag inOrder = new ActuationLag();
        ActuationLag reversed = new ActuationLag();
        for (Object event : events) {
            feed(inOrder, event);
        }
        for (int i = events.size() - 1; i >= 0; i--) {
            feed(reversed, events.get(i));
        }
        assertThat(inOrder.seconds()).isPositive().isLessThan(2).isEqualTo(reversed.seconds());
    }

    @Test
    void noAppliedResultIsNoLag() {
        assertThat(new ActuationLag().seconds()).isZero();
    }

    private static void feed(ActuationLag lag, Object event) {
        if (event instanceof ScaleDecision decision) {
            lag.decision(decision);
        } else if (event instanceof ActuationResult result) {
            lag.actuation(result);
        }
    }
}
