package dev.rayscale.fences;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link in the repository's Markdown (the README, docs/, each module's README) leads somewhere: the file
 * exists, and an anchor names a heading of it as GitHub makes its ids. A moved page or a renamed heading fails here, not in
 * a reader's browser.
 */
class DocumentationLinksTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*)$");
    private static final Set<String> SKIPPED = Set.of("target", "node_modules", ".git", ".rayscale", ".mvn");

    @Test
    void everyRelativeLinkLeadsToAFileAndAHeadingThatExist() throws IOException {
        List<String> broken = new ArrayList<>();
        List<Path> pages = markdown();
        for (Path page : pages) {
            Matcher link = LINK.matcher(Files.readString(page));
            while (link.find()) {
                String target = link.group(1);
                if (target.matches("^[a-z]+:.*")) {
                    continue;
                }
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                if (!Files.exists(resolved)) {
                    broken.add(ROOT.relativize(page) + ": " + target + " (no such file)");
                } else if (hash >= 0 && resolved.toString().endsWith(".md") && !anchors(resolved).contains(target.substring(hash + 1))) {
                    broken.add(ROOT.relativize(page) + ": " + target + " (no such heading)");
                }
            }
        }
        assertThat(pages).as("the pages read").extracting(page -> ROOT.relativize(page).toString())
                .contains("README.md", "docs/operators.md", "docs/consumers.md", "docs/auditors.md", "docs/contributors.md",
                        "docs/benchmarks.md", "docs/trust-model.md", "deploy/README.md", "events-schema/README.md");
        assertThat(broken).isEmpty();
    }

    /** Each page names its reader first: the line after its title says who it is for. */
    @Test
    void eachDocsPageSaysWhoItIsFor() throws IOException {
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            List<String> unnamed = docs.filter(page -> page.toString().endsWith(".md")).filter(page -> !namesItsReader(page))
                    .map(page -> ROOT.relativize(page).toString()).toList();
            assertThat(unnamed).isEmpty();
        }
    }

    private static boolean namesItsReader(Path page) {
        try {
            List<String> lines = Files.readAllLines(page).stream().filter(line -> !line.isBlank()).limit(2).toList();
            return lines.size() == 2 && lines.get(0).startsWith("# ") && lines.get(1).toLowerCase(Locale.ROOT).matches("^\\**for\\**\\s.*");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Path> markdown() throws IOException {
        try (Stream<Path> files = Files.walk(ROOT)) {
            return files.filter(path -> path.toString().endsWith(".md"))
                    .filter(path -> ROOT.relativize(path).toString().split("/").length < 4)
                    .filter(path -> {
                        for (Path part : ROOT.relativize(path)) {
                            if (SKIPPED.contains(part.toString())) {
                                return false;
                            }
                        }
                        return true;
                    }).sorted().toList();
        }
    }

    /** The ids GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens. */
    private static Set<String> anchors(Path page) throws IOException {
        return Files.readAllLines(page).stream().map(HEADING::matcher).filter(Matcher::matches)
                .map(heading -> heading.group(1).trim().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-'))
                .collect(Collectors.toSet());
    }
}
