package dev.switchboard.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The naming rule of docs/decisions.md, over the Java sources of every module: a class name finds one
 * file (no two share a simple name, or differ only by case), and every type of a wire format package
 * starts with its format's name.
 */
class SourceNamesTest {
    private static final Map<String, String> FORMAT_PREFIXES = Map.of(
            "anthropic", "Anthropic", "gemini", "Gemini", "openai", "OpenAi", "responses", "Responses");
    private static final Pattern FORMAT_PACKAGE =
            Pattern.compile("wire/src/(?:main|test)/java/dev/switchboard/wire/([a-z]+)/[^/]+\\.java");

    private static Path repository() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !isRoot(dir)) {
            dir = dir.getParent();
        }
        assertThat(dir).as("the repository root (the pom listing the modules) above the working directory").isNotNull();
        return dir;
    }

    private static boolean isRoot(Path dir) {
        try {
            return Files.exists(dir.resolve("pom.xml")) && Files.readString(dir.resolve("pom.xml")).contains("<module>wire</module>");
        } catch (IOException e) {
            return false;
        }
    }

    private static List<Path> sources(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(p -> p.toString().endsWith(".java"))
                    .map(root::relativize)
                    .filter(p -> p.toString().replace('\\', '/').matches("[^/]+/src/(main|test)/java/.*"))
                    .filter(p -> !p.getFileName().toString().equals("package-info.java")
                            && !p.getFileName().toString().equals("module-info.java"))
                    .sorted()
                    .toList();
        }
    }

    private static String simpleName(Path p) {
        String file = p.getFileName().toString();
        return file.substring(0, file.length() - ".java".length());
    }

    @Test
    void aClassNameFindsOneFile() throws IOException {
        Map<String, List<String>> byName = sources(repository()).stream().collect(Collectors.groupingBy(
                p -> simpleName(p).toLowerCase(Locale.ROOT), TreeMap::new,
                Collectors.mapping(p -> p.toString().replace('\\', '/'), Collectors.toList())));
        assertThat(byName).as("sources found").hasSizeGreaterThan(100);
        Map<String, List<String>> shared = new TreeMap<>(byName);
        shared.values().removeIf(files -> files.size() == 1);
        assertThat(shared).as("simple names (ignoring case) used by more than one file").isEmpty();
    }

    @Test
    void everyTypeOfAFormatPackageStartsWithTheFormatsName() throws IOException {
        List<String> offenders = sources(repository()).stream().map(p -> p.toString().replace('\\', '/'))
                .filter(p -> {
                    Matcher m = FORMAT_PACKAGE.matcher(p);
                    return m.matches() && FORMAT_PREFIXES.containsKey(m.group(1))
                            && !simpleName(Path.of(p)).startsWith(FORMAT_PREFIXES.get(m.group(1)));
                })
                .toList();
        assertThat(offenders).as("types of a wire format package without its format's name").isEmpty();
    }
}
