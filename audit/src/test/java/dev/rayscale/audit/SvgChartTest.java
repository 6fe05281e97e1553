package dev.rayscale.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class SvgChartTest {

    private static final Pattern TICK_LABEL = Pattern.compile("<g class=\"tick\">.*?<text[^>]*>([^<]*)</text></g>");
    private static final Pattern POINTS = Pattern.compile("<polyline class=\"series\"[^>]*points=\"([^\"]*)\"");

    @Test
    void bothAxesAreTitledAndTickedFromZeroPastTheLargestValue() {
        String svg = new SvgChart("time (s simulated)", "tasks").line("#000", "pending", new double[] {0, 300, 575}, new double[] {3, 15, 0})
                .render("demand over time");

        assertThat(svg).contains("class=\"axis-title x-title\"", ">time (s simulated)</text>", ">tasks</text>", "aria-label=\"demand over time\"");
        assertThat(labels(svg)).containsExactly("0", "100", "200", "300", "400", "500", "600", "0", "5", "10", "15");
    }

    @Test
    void aStepSeriesHoldsEachValueUntilTheNext() {
        String svg = new SvgChart("time (s)", "replicas").steps("#000", "target", new double[] {0, 10, 20}, new double[] {0, 15, 5}).render("targets");

        Matcher points = POINTS.matcher(svg);
        assertThat(points.find()).isTrue();
        List<String> path = List.of(points.group(1).split(" "));
        assertThat(path).hasSize(5);
        assertThat(path.get(1).split(",")[1]).as("at the second time, still the first value").isEqualTo(path.get(0).split(",")[1]);
        assertThat(path.get(1).split(",")[0]).isEqualTo(path.get(2).split(",")[0]);
    }

    private static List<String> labels(String svg) {
        return TICK_LABEL.matcher(svg).results().map(result -> result.group(1)).toList();
    }
}
