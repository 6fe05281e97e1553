package dev.rayscale.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.utils.Utils;

/**
 * Debian's Chromium, headless, driven over the Chrome DevTools Protocol (a WebSocket, JSON messages): opens a page,
 * collects what the browser reports as errors (uncaught exceptions, console errors, failed loads), evaluates script in
 * it and takes a screenshot of the whole page. The flags are those this machine needs: no sandbox (root), no background
 * networking (the network is closed), a fresh profile.
 */
final class HeadlessChromium implements AutoCloseable {

    private static final Pattern LISTENING = Pattern.compile("DevTools listening on (ws://\\S+)");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long TIMEOUT_SECONDS = 60;

    private final Process process;
    private final Path profile;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> replies = new ConcurrentHashMap<>();
    private final Map<String, CompletableFuture<JsonNode>> awaitedEvents = new ConcurrentHashMap<>();
    private final List<String> errors = new ArrayList<>();

    private HeadlessChromium(Process process, Path profile, URI endpoint) {
        this.process = process;
        this.profile = profile;
        this.socket = HttpClient.newHttpClient().newWebSocketBuilder().buildAsync(endpoint, new Messages()).join();
    }

    /** Starts Chromium: {@code RAYSCALE_CHROMIUM}, or Debian's {@code /usr/bin/chromium} (CI installs it, .ci/run). */
    static HeadlessChromium start() throws IOException, InterruptedException {
        Path binary = Path.of(System.getenv().getOrDefault("RAYSCALE_CHROMIUM", "/usr/bin/chromium"));
        if (!Files.isExecutable(binary)) {
            throw new IllegalStateException("no Chromium at " + binary + ": install Debian's (apt-get install chromium, as .ci/run does) "
                    + "or point RAYSCALE_CHROMIUM at one");
        }
        Path profile = Files.createTempDirectory("rayscale-chromium");
        Process process = new ProcessBuilder(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                "--user-data-dir=" + profile, "--remote-debugging-port=0", "about:blank").redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        BufferedReader stderr = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8));
        for (String line = stderr.readLine(); line != null; line = stderr.readLine()) {
            Matcher listening = LISTENING.matcher(line);
            if (listening.find()) {
                Thread drain = new Thread(() -> stderr.lines().forEach(ignored -> { }), "chromium-stderr");
                drain.setDaemon(true);
                drain.start();
                return new HeadlessChromium(process, profile, URI.create(listening.group(1)));
            }
        }
        throw new IllegalStateException("Chromium exited before it listened for DevTools: exit " + process.waitFor(5, TimeUnit.SECONDS));
    }

    /** A page open in a tab of {@code width} CSS pixels, loaded; what it reported as errors is in {@link #errors()}. */
    Tab open(Path file, int width) throws Exception {
        String target = call(null, "Target.createTarget", Map.of("url", "about:blank")).get("targetId").asText();
        String session = call(null, "Target.attachToTarget", Map.of("targetId", target, "flatten", true)).get("sessionId").asText();
        for (String domain : List.of("Page.enable", "Runtime.enable", "Log.enable")) {
            call(session, domain, Map.of());
        }
        call(session, "Emulation.setDeviceMetricsOverride", Map.of("width", width, "height", 800, "deviceScaleFactor", 1, "mobile", false));
        CompletableFuture<JsonNode> loaded = new CompletableFuture<>();
        awaitedEvents.put(session + "/Page.loadEventFired", loaded);
        JsonNode navigated = call(session, "Page.navigate", Map.of("url", file.toUri().toString()));
        if (navigated.has("errorText")) {
            throw new IllegalStateException("Chromium could not open " + file + ": " + navigated.get("errorText").asText());
        }
        loaded.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        return new Tab(session);
    }

    /** What the browser reported as errors so far: uncaught exceptions, console.error and console.assert, failed loads. */
    synchronized List<String> errors() {
        return List.copyOf(errors);
    }

    /** An open page. */
    final class Tab {

        private final String session;

        private Tab(String session) {
            this.session = session;
        }

        /** The value of a script expression evaluated in the page (JSON-able values only). */
        JsonNode evaluate(String expression) throws Exception {
            JsonNode reply = call(session, "Runtime.evaluate", Map.of("expression", expression, "returnByValue", true));
            if (reply.has("exceptionDetails")) {
                throw new IllegalStateException("the page threw evaluating " + expression + ": " + reply.get("exceptionDetails"));
            }
            return reply.path("result").path("value");
        }

        /** A PNG of the whole page, not only the window. */
        void screenshot(Path file) throws Exception {
            JsonNode shot = call(session, "Page.captureScreenshot", Map.of("format", "png", "captureBeyondViewport", true));
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.write(file, Base64.getDecoder().decode(shot.get("data").asText()));
        }
    }

    private JsonNode call(String session, String method, Map<String, Object> params) throws Exception {
        int id = ids.incrementAndGet();
        ObjectNode message = JSON.createObjectNode().put("id", id).put("method", method);
        message.set("params", JSON.valueToTree(params));
        if (session != null) {
            message.put("sessionId", session);
        }
        CompletableFuture<JsonNode> reply = new CompletableFuture<>();
        replies.put(id, reply);
        socket.sendText(JSON.writeValueAsString(message), true).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        JsonNode answer = reply.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (answer.has("error")) {
            throw new IllegalStateException(method + " failed: " + answer.get("error"));
        }
        return answer.path("result");
    }

    private synchronized void error(String what) {
        errors.add(what);
    }

    private void received(JsonNode message) {
        if (message.has("id")) {
            CompletableFuture<JsonNode> reply = replies.remove(message.get("id").asInt());
            if (reply != null) {
                reply.complete(message);
            }
            return;
        }
        String method = message.path("method").asText();
        JsonNode params = message.path("params");
        switch (method) {
            case "Runtime.exceptionThrown" -> error("uncaught: " + params.path("exceptionDetails"));
            case "Runtime.consoleAPICalled" -> {
                String type = params.path("type").asText();
                if (type.equals("error") || type.equals("assert")) {
                    error("console." + type + ": " + params.path("args"));
                }
            }
            case "Log.entryAdded" -> {
                if (params.path("entry").path("level").asText().equals("error")) {
                    error("log: " + params.path("entry").path("text").asText() + " " + params.path("entry").path("url").asText());
                }
            }
            default -> {
                CompletableFuture<JsonNode> awaited = awaitedEvents.remove(message.path("sessionId").asText() + "/" + method);
                if (awaited != null) {
                    awaited.complete(params);
                }
            }
        }
    }

    /** Reassembles the socket's text frames into messages. */
    private final class Messages implements WebSocket.Listener {

        private final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                try {
                    received(JSON.readTree(partial.toString()));
                } catch (IOException e) {
                    error("unreadable DevTools message: " + e.getMessage());
                }
                partial.setLength(0);
            }
            webSocket.request(1);
            return null;
        }
    }

    /**
     * Stops the browser with every process it started (the renderers and the GPU process outlive the main one for a moment
     * and keep writing to the profile), then deletes the profile.
     */
    @Override
    public void close() throws IOException {
        socket.abort();
        List<ProcessHandle> processes = new ArrayList<>(process.descendants().toList());
        processes.add(process.toHandle());
        processes.forEach(ProcessHandle::destroy);
        for (ProcessHandle handle : processes) {
            awaitExit(handle);
        }
        // Kafka's recursive delete: a file that vanishes while it is walked counts as deleted.
        Utils.delete(profile.toFile());
    }

    private static void awaitExit(ProcessHandle handle) {
        if (handle.onExit().completeOnTimeout(handle, 10, TimeUnit.SECONDS).join().isAlive()) {
            handle.destroyForcibly();
            handle.onExit().completeOnTimeout(handle, 10, TimeUnit.SECONDS).join();
        }
    }
}
