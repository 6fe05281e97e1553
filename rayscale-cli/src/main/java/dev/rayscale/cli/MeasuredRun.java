package dev.rayscale.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One {@code ./rayscale COMMAND...} run as a user runs it (a process of its own, the launcher's heap), with its wall time and
 * peak resident memory (VmHWM): what the bench commands measure.
 */
record MeasuredRun(String source, String command, double seconds, long rssMiB, int exitCode, String lastLine) {

    static MeasuredRun of(Path root, Path work, String source, List<String> command) throws IOException, InterruptedException {
        List<String> launch = new ArrayList<>(List.of("bash", root.resolve("rayscale").toString()));
        launch.addAll(command);
        Path output = work.resolve(source + "-" + command.get(0) + ".out");
        long begun = System.nanoTime();
        Process process = new ProcessBuilder(launch).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        long peakKiB = 0;
        Path status = Path.of("/proc/" + process.pid() + "/status");
        while (!process.waitFor(20, TimeUnit.MILLISECONDS)) {
            try {
                for (String line : Files.readAllLines(status)) {
                    if (line.startsWith("VmHWM:")) {
                        peakKiB = Math.max(peakKiB, Long.parseLong(line.replaceAll("[^0-9]", "")));
                    }
                }
            } catch (IOException exited) {
                // the process ended between the wait and the read
            }
        }
        double seconds = (System.nanoTime() - begun) / 1e9;
        List<String> lines = Files.readAllLines(output);
        String last = lines.isEmpty() ? "" : lines.get(lines.size() - 1);
        return new MeasuredRun(source, command.get(0), seconds, peakKiB >> 10, process.exitValue(), last);
    }
}
