package dev.switchboard.server.config;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Turns a YAML config file (format: {@code docs/config.example.yaml}) or
 * the embedded default into a validated {@link GatewayConfig}.
 *
 * <p>Contract: either a complete configuration is returned, or a {@link ConfigException} lists every
 * problem found, each with the source, line, column, what was expected and how to fix it. Nothing is
 * half-applied. {@code env} is the environment that {@code ${VAR}} and {@code ${VAR:-default}} are
 * expanded from (pass {@code System.getenv()}; tests pass a map). Loading has no side effects: it reads
 * the file and class-path resources only.
 */
public final class ConfigLoader {
    private ConfigLoader() {
    }

    /** Loads and validates the config file at {@code file}. */
    public static GatewayConfig load(Path file, Map<String, String> env) {
        String source = file.toString();
        String text;
        if (Files.isDirectory(file)) {
            throw new ConfigException(new ConfigProblem(source, 0, 0, "this is a directory, not a config file (give the YAML file's path)"));
        }
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new ConfigException(new ConfigProblem(source, 0, 0,
                    "config file not found (check the path given with --config or SWITCHBOARD_CONFIG)"));
        } catch (CharacterCodingException e) {
            throw new ConfigException(new ConfigProblem(source, 0, 0, "config file is not UTF-8 text (save it as UTF-8)"));
        } catch (AccessDeniedException e) {
            throw new ConfigException(new ConfigProblem(source, 0, 0,
                    "cannot read config file: permission denied (make it readable by the user running Switchboard)"));
        } catch (IOException e) {
            String reason = e instanceof FileSystemException f && f.getReason() != null ? f.getReason() : e.getMessage();
            throw new ConfigException(new ConfigProblem(source, 0, 0, "cannot read config file: " + reason));
        }
        return parse(text, source, env);
    }

    /** Validates config {@code yaml}; {@code source} names it in problems (and becomes {@link GatewayConfig#source()}). */
    public static GatewayConfig parse(String yaml, String source, Map<String, String> env) {
        Problems problems = new Problems();
        EnvExpander expander = new EnvExpander(env);
        YamlNode.Mapping root = YamlReader.read(yaml, source, problems);
        return new ConfigBinder(problems, expander).bind(expander.expand(root, problems), source);
    }

    /**
     * The configuration used without a config file: listen {@code 127.0.0.1:8080}, database
     * {@code sqlite:data/switchboard.db}, no Redis, the in-process {@code simulator} provider with the free
     * demo model {@code switchboard-demo} (alias {@code demo}); plus, for each of {@code OPENAI_API_KEY},
     * {@code ANTHROPIC_API_KEY}, {@code GEMINI_API_KEY} and {@code OPENROUTER_API_KEY} that is set and not
     * blank, that vendor's provider (ids {@code openai}, {@code anthropic}, {@code gemini},
     * {@code openrouter}, official base URLs) and the shipped catalog models that reach an enabled provider.
     * {@code SWITCHBOARD_LISTEN}, {@code SWITCHBOARD_DATABASE}, {@code SWITCHBOARD_ADMIN_KEY} and
     * {@code SWITCHBOARD_REDIS} override the corresponding settings.
     */
    public static GatewayConfig embeddedDefault(Map<String, String> env) {
        return EmbeddedDefault.build(env);
    }
}
