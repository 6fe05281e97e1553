package dev.rayscale.audit;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A line chart as inline SVG: a few series over the same x axis, a legend, and dashed marks. */
public final class SvgChart {

    private static final int WIDTH = 900;
    private static final int HEIGHT = 320;
    private static final int MARGIN = 40;

    private record Series(String color, String label, double[] xs, double[] ys) {
    }

    private final String xUnit;
    private final List<Series> series = new ArrayList<>();
    private final List<Double> marks = new ArrayList<>();

    /** @param xUnit the x axis' unit, e.g. {@code s simulated} */
    public SvgChart(String xUnit) {
        this.xUnit = xUnit;
    }

    public SvgChart line(String color, String label, double[] xs, double[] ys) {
        series.add(new Series(color, label, xs, ys));
        return this;
    }

    /** A dashed vertical line at {@code x}. */
    public SvgChart mark(double x) {
        marks.add(x);
        return this;
    }

    public String render(String description) {
        double maxX = 1;
        double maxY = 1;
        for (Series line : series) {
            for (double x : line.xs()) {
                maxX = Math.max(maxX, x);
            }
            for (double y : line.ys()) {
                maxY = Math.max(maxY, y);
            }
        }
        StringBuilder svg = new StringBuilder()
                .append("<svg viewBox=\"0 0 ").append(WIDTH).append(' ').append(HEIGHT).append("\" width=\"").append(WIDTH)
                .append("\" height=\"").append(HEIGHT).append("\" role=\"img\" aria-label=\"").append(Html.escape(description)).append("\">")
                .append("<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>")
                .append("<line x1=\"").append(MARGIN).append("\" y1=\"").append(HEIGHT - MARGIN).append("\" x2=\"").append(WIDTH - 10)
                .append("\" y2=\"").append(HEIGHT - MARGIN).append("\" stroke=\"#333\"/><line x1=\"").append(MARGIN).append("\" y1=\"")
                .append(MARGIN).append("\" x2=\"").append(MARGIN).append("\" y2=\"").append(HEIGHT - MARGIN).append("\" stroke=\"#333\"/>")
                .append("<text x=\"").append(WIDTH - 120).append("\" y=\"").append(HEIGHT - 10).append("\" font-size=\"12\">")
                .append(String.format(Locale.ROOT, "%.0f %s", maxX, Html.escape(xUnit))).append("</text><text x=\"4\" y=\"")
                .append(MARGIN - 4).append("\" font-size=\"12\">").append(String.format(Locale.ROOT, "%.0f", maxY)).append("</text>");
        int legend = 0;
        for (Series line : series) {
            svg.append("<polyline fill=\"none\" stroke=\"").append(line.color()).append("\" stroke-width=\"2\" points=\"");
            for (int i = 0; i < line.xs().length; i++) {
                svg.append(i == 0 ? "" : " ").append(x(line.xs()[i], maxX)).append(',').append(y(line.ys()[i], maxY));
            }
            svg.append("\"/><text x=\"").append(MARGIN + 10 + legend * 210).append("\" y=\"16\" font-size=\"12\" fill=\"")
                    .append(line.color()).append("\">&#9632; ").append(Html.escape(line.label())).append("</text>");
            legend++;
        }
        for (double at : marks) {
            svg.append("<line x1=\"").append(x(at, maxX)).append("\" x2=\"").append(x(at, maxX)).append("\" y1=\"").append(MARGIN)
                    .append("\" y2=\"").append(HEIGHT - MARGIN).append("\" stroke=\"#999\" stroke-dasharray=\"3,3\"/>");
        }
        return svg.append("</svg>").toString();
    }

    private static String x(double value, double maxX) {
        return String.format(Locale.ROOT, "%.1f", MARGIN + value / maxX * (WIDTH - MARGIN - 10));
    }

    private static String y(double value, double maxY) {
        return String.format(Locale.ROOT, "%.1f", HEIGHT - MARGIN - value / maxY * (HEIGHT - 2 * MARGIN));
    }
}
