package dev.switchboard.server.extend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.switchboard.engine.extend.Seed;
import dev.switchboard.model.GatewayError;
import dev.switchboard.wire.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;

/** Seed documents as files: YAML or JSON in, YAML or JSON out; artifact {@code file}s resolved beside the seed. */
public final class SeedFiles {
    private static final YAMLMapper YAML = new YAMLMapper(YAMLFactory.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.LITERAL_BLOCK_STYLE)
            .build());

    private SeedFiles() {
    }

    /** Parses YAML (a superset of JSON) into a tree; a 400 saying where when it is not. */
    public static JsonNode parse(byte[] text, String what) {
        try {
            JsonNode node = YAML.readTree(text);
            if (node == null || node.isMissingNode() || node.isNull()) {
                throw GatewayError.invalidRequest(what + " is empty; expected a seed document {skills: [...], ...}").toException();
            }
            return node;
        } catch (IOException e) {
            String m = String.valueOf(e.getMessage());
            throw GatewayError.invalidRequest(what + " is not valid YAML or JSON: " + (m.length() > 300 ? m.substring(0, 300) : m))
                    .toException();
        }
    }

    /** The seed in {@code file}, artifact {@code file}s relative to its directory. */
    public static Seed read(Path file, Instant now) {
        byte[] text;
        try {
            text = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("no such file: " + file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        Path dir = file.toAbsolutePath().getParent();
        return Seed.read(parse(text, file.toString()), (path, field) -> {
            try {
                return Files.readAllBytes(dir.resolve(path));
            } catch (IOException e) {
                throw GatewayError.invalid(field, field + ": cannot read " + dir.resolve(path) + " (" + e.getClass().getSimpleName()
                        + ")").toException();
            }
        }, now);
    }

    /** The seed shipped as a class-path resource; artifact {@code file}s are resources beside it, never outside. */
    public static Seed resource(String name, Instant now) {
        String dir = name.substring(0, name.lastIndexOf('/') + 1);
        return Seed.read(parse(resourceBytes(name), name), (path, field) -> {
            if (path.contains("..") || path.startsWith("/")) {
                throw GatewayError.invalid(field, field + ": a shipped seed refers to files beside it only").toException();
            }
            return resourceBytes(dir + path);
        }, now);
    }

    private static byte[] resourceBytes(String name) {
        try (InputStream in = SeedFiles.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read resource " + name, e);
        }
    }

    /** The seed as text: {@code yaml} or {@code json}. */
    public static byte[] write(Seed seed, String format) {
        try {
            return switch (format.toLowerCase(Locale.ROOT)) {
                case "yaml", "yml" -> YAML.writeValueAsBytes(seed.toJson());
                case "json" -> Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(seed.toJson());
                default -> throw GatewayError.invalid("format", "format: expected yaml or json, got '" + format + "'").toException();
            };
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the seed", e);
        }
    }
}
