package dev.rayscale.demo;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Random;
import java.util.stream.IntStream;

/**
 * Ports for the processes the demo, the bench and the end-to-end tests start. Drawn below the system's ephemeral range
 * (32768 and up on Linux): a port the system picked for an outgoing connection there could be taken again between
 * this check and the process's bind.
 */
public final class FreePorts {

    private static final int LOWEST = 20_000;
    private static final int SPAN = 12_000;
    private static final Random RANDOM = new Random();

    private FreePorts() {
    }

    /** The first of {@code count} consecutive ports free now (a broker puts its controller on the port after the client one). */
    public static int firstOf(int count) {
        for (int attempt = 0; attempt < 200; attempt++) {
            int first = LOWEST + RANDOM.nextInt(SPAN - count);
            if (IntStream.range(first, first + count).allMatch(FreePorts::free)) {
                return first;
            }
        }
        throw new IllegalStateException("no " + count + " consecutive free ports between " + LOWEST + " and " + (LOWEST + SPAN));
    }

    private static boolean free(int port) {
        try (ServerSocket ignored = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException taken) {
            return false;
        }
    }
}
