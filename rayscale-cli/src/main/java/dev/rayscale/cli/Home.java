package dev.rayscale.cli;

import java.nio.file.Path;

/** Where the Rayscale checkout is (the launcher passes it as {@code rayscale.home}), and the commands' working folders in it. */
final class Home {

    private Home() {
    }

    static Path root() {
        return Path.of(System.getProperty("rayscale.home", ".")).toAbsolutePath().normalize();
    }

    /** {@code .rayscale/<name>}: logs, the broker's data, reports. Ignored by git. */
    static Path work(String name) {
        return root().resolve(".rayscale").resolve(name);
    }
}
