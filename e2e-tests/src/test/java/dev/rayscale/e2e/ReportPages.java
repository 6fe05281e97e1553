package dev.rayscale.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A report page as a reader sees it, in a real browser: it loads without an error, each chart has a time axis and a count
 * axis, both titled and with at least three ticks labelled by increasing numbers, lines drawn inside the chart, and a row
 * per decision. A screenshot of it is kept ({@code target/screenshots}; the docs show one).
 */
final class ReportPages {

    static final Path SCREENSHOTS = Path.of("target", "screenshots");

    private ReportPages() {
    }

    static void assertReadable(Path page, int decisions, String screenshot) throws Exception {
        try (HeadlessChromium chromium = HeadlessChromium.start()) {
            HeadlessChromium.Tab tab = chromium.open(page, 1000);
            JsonNode charts = tab.evaluate("""
                    [...document.querySelectorAll('svg')].map(svg => ({
                      xTitle: svg.querySelector('.x-title')?.textContent ?? '',
                      yTitle: svg.querySelector('.y-title')?.textContent ?? '',
                      xTicks: [...svg.querySelectorAll('.x-axis .tick text')].map(t => t.textContent),
                      yTicks: [...svg.querySelectorAll('.y-axis .tick text')].map(t => t.textContent),
                      drawn: [...svg.querySelectorAll('polyline.series')].map(l => l.getBBox().width),
                      width: svg.getBoundingClientRect().width
                    }))""");
            int rows = tab.evaluate("document.querySelectorAll('table.decisions tr.decision').length").asInt();
            tab.screenshot(SCREENSHOTS.resolve(screenshot));

            assertThat(chromium.errors()).as("errors the browser reported for " + page).isEmpty();
            assertThat(charts).as("charts").isNotEmpty();
            for (JsonNode chart : charts) {
                assertThat(chart.get("width").asDouble()).as("chart drawn on the page").isPositive();
                assertThat(chart.get("xTitle").asText()).as("time axis title, with its unit").contains("time").contains("(s");
                assertThat(chart.get("yTitle").asText()).as("count axis title").isNotBlank();
                assertThat(numbers(chart.get("xTicks"))).as("time axis ticks").hasSizeGreaterThanOrEqualTo(3).isSorted().doesNotHaveDuplicates();
                assertThat(numbers(chart.get("yTicks"))).as("count axis ticks").hasSizeGreaterThanOrEqualTo(3).isSorted().doesNotHaveDuplicates();
                assertThat(chart.get("drawn")).as("series drawn").anySatisfy(width -> assertThat(width.asDouble()).isPositive());
            }
            assertThat(rows).as("a row per decision").isEqualTo(decisions);
        }
    }

    private static List<Double> numbers(JsonNode labels) {
        List<Double> numbers = new ArrayList<>();
        labels.forEach(label -> numbers.add(Double.parseDouble(label.asText())));
        return numbers;
    }
}
