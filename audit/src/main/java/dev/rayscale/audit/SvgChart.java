package dev.rayscale.audit;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A line or point chart as inline SVG, drawn by hand so that a report is one static file that needs no script, no network and no
 * library to be read (and prints the same every time, for the recordings' goldens): a few series over the same x axis,
 * both axes from zero with round ticks, gridlines and a title with the unit, a legend, and dashed marks.
 */
public final class SvgChart {

    private static final int WIDTH = 900;
    private static final int HEIGHT = 340;
    private static final int LEFT = 64;
    private static final int RIGHT = 16;
    private static final int TOP = 36;
    private static final int BOTTOM = 52;

    private enum Style {
        LINE, STEPS, POINTS
    }

    private record Series(String color, String label, double[] xs, double[] ys, Style style) {
    }

    private final String xTitle;
    private final String yTitle;
    private final List<Series> series = new ArrayList<>();
    private final List<Double> marks = new ArrayList<>();

    /**
     * @param xTitle the x axis' title with its unit, e.g. {@code time (s simulated)}
     * @param yTitle the y axis' title, e.g. {@code count}
     */
    public SvgChart(String xTitle, String yTitle) {
        this.xTitle = xTitle;
        this.yTitle = yTitle;
    }

    public SvgChart line(String color, String label, double[] xs, double[] ys) {
        series.add(new Series(color, label, xs, ys, Style.LINE));
        return this;
    }

    /** A series that holds each value until the next one (a target, a count read now and then), drawn as steps. */
    public SvgChart steps(String color, String label, double[] xs, double[] ys) {
        series.add(new Series(color, label, xs, ys, Style.STEPS));
        return this;
    }

    /** A series of unjoined points (each a separate case, as the policies a tune tried), drawn as dots. */
    public SvgChart points(String color, String label, double[] xs, double[] ys) {
        series.add(new Series(color, label, xs, ys, Style.POINTS));
        return this;
    }

    /** A dashed vertical line at {@code x}. */
    public SvgChart mark(double x) {
        marks.add(x);
        return this;
    }

    public String render(String description) {
        double maxX = marks.stream().mapToDouble(Double::doubleValue).max().orElse(0);
        double maxY = 0;
        for (Series line : series) {
            for (double x : line.xs()) {
                maxX = Math.max(maxX, x);
            }
            for (double y : line.ys()) {
                maxY = Math.max(maxY, y);
            }
        }
        Axis xAxis = Axis.covering(maxX);
        Axis yAxis = Axis.covering(maxY);
        StringBuilder svg = new StringBuilder()
                .append("<svg viewBox=\"0 0 ").append(WIDTH).append(' ').append(HEIGHT).append("\" width=\"").append(WIDTH)
                .append("\" height=\"").append(HEIGHT).append("\" role=\"img\" aria-label=\"").append(Html.escape(description))
                .append("\" font-family=\"sans-serif\" font-size=\"12\"><rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>");
        xTicks(svg, xAxis);
        yTicks(svg, yAxis);
        svg.append("<line x1=\"").append(LEFT).append("\" y1=\"").append(HEIGHT - BOTTOM).append("\" x2=\"").append(WIDTH - RIGHT)
                .append("\" y2=\"").append(HEIGHT - BOTTOM).append("\" stroke=\"#333\"/><line x1=\"").append(LEFT).append("\" y1=\"")
                .append(TOP).append("\" x2=\"").append(LEFT).append("\" y2=\"").append(HEIGHT - BOTTOM).append("\" stroke=\"#333\"/>")
                .append("<text class=\"axis-title x-title\" x=\"").append(LEFT + (WIDTH - LEFT - RIGHT) / 2).append("\" y=\"")
                .append(HEIGHT - 8).append("\" text-anchor=\"middle\">").append(Html.escape(xTitle)).append("</text>")
                .append("<text class=\"axis-title y-title\" transform=\"translate(14,").append(TOP + (HEIGHT - TOP - BOTTOM) / 2)
                .append(") rotate(-90)\" text-anchor=\"middle\">").append(Html.escape(yTitle)).append("</text>");
        for (double at : marks) {
            svg.append("<line class=\"mark\" x1=\"").append(x(at, xAxis)).append("\" x2=\"").append(x(at, xAxis)).append("\" y1=\"")
                    .append(TOP).append("\" y2=\"").append(HEIGHT - BOTTOM).append("\" stroke=\"#999\" stroke-dasharray=\"3,3\"/>");
        }
        int legend = 0;
        for (Series line : series) {
            if (line.style() == Style.POINTS) {
                for (int i = 0; i < line.xs().length; i++) {
                    svg.append("<circle class=\"point\" r=\"4\" fill=\"").append(line.color()).append("\" cx=\"").append(x(line.xs()[i], xAxis))
                            .append("\" cy=\"").append(y(line.ys()[i], yAxis)).append("\"/>");
                }
            } else {
                svg.append("<polyline class=\"series\" fill=\"none\" stroke=\"").append(line.color()).append("\" stroke-width=\"2\" points=\"");
                for (int i = 0; i < line.xs().length; i++) {
                    if (line.style() == Style.STEPS && i > 0) {
                        svg.append(' ').append(x(line.xs()[i], xAxis)).append(',').append(y(line.ys()[i - 1], yAxis));
                    }
                    svg.append(i == 0 ? "" : " ").append(x(line.xs()[i], xAxis)).append(',').append(y(line.ys()[i], yAxis));
                }
                svg.append("\"/>");
            }
            svg.append("<text class=\"legend\" x=\"").append(LEFT + 10 + legend * 210).append("\" y=\"18\" fill=\"")
                    .append(line.color()).append("\">&#9632; ").append(Html.escape(line.label())).append("</text>");
            legend++;
        }
        return svg.append("</svg>").toString();
    }

    private static void xTicks(StringBuilder svg, Axis axis) {
        svg.append("<g class=\"axis x-axis\">");
        for (double value : axis.ticks()) {
            String at = x(value, axis);
            svg.append("<g class=\"tick\"><line x1=\"").append(at).append("\" x2=\"").append(at).append("\" y1=\"").append(HEIGHT - BOTTOM)
                    .append("\" y2=\"").append(HEIGHT - BOTTOM + 5).append("\" stroke=\"#333\"/><text x=\"").append(at).append("\" y=\"")
                    .append(HEIGHT - BOTTOM + 18).append("\" text-anchor=\"middle\">").append(axis.label(value)).append("</text></g>");
        }
        svg.append("</g>");
    }

    private static void yTicks(StringBuilder svg, Axis axis) {
        svg.append("<g class=\"axis y-axis\">");
        for (double value : axis.ticks()) {
            String at = y(value, axis);
            svg.append("<g class=\"tick\"><line x1=\"").append(LEFT).append("\" x2=\"").append(WIDTH - RIGHT).append("\" y1=\"").append(at)
                    .append("\" y2=\"").append(at).append("\" stroke=\"#eee\"/><line x1=\"").append(LEFT - 5).append("\" x2=\"").append(LEFT)
                    .append("\" y1=\"").append(at).append("\" y2=\"").append(at).append("\" stroke=\"#333\"/><text x=\"").append(LEFT - 8)
                    .append("\" y=\"").append(at).append("\" dy=\"4\" text-anchor=\"end\">").append(axis.label(value)).append("</text></g>");
        }
        svg.append("</g>");
    }

    private static String x(double value, Axis axis) {
        return String.format(Locale.ROOT, "%.1f", LEFT + axis.fraction(value) * (WIDTH - LEFT - RIGHT));
    }

    private static String y(double value, Axis axis) {
        return String.format(Locale.ROOT, "%.1f", HEIGHT - BOTTOM - axis.fraction(value) * (HEIGHT - TOP - BOTTOM));
    }
}
