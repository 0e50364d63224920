package dev.switchboard.server.config;

import dev.switchboard.server.config.YamlNode.Entry;
import dev.switchboard.server.config.YamlNode.Mapping;
import dev.switchboard.server.config.YamlNode.Scalar;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The configuration used when the operator gives none: {@code embedded-default.yaml} (listen, database,
 * the in-process simulator and its demo model, with {@code SWITCHBOARD_*} overrides), plus, for each
 * vendor key found non-blank in the environment, that vendor's provider from {@code builtin-providers.yaml}
 * and the shipped catalog models that reach an enabled provider. It goes through the same reader,
 * expander and binder as a file, so it obeys the same rules.
 */
final class EmbeddedDefault {
    static final String BASE_RESOURCE = "embedded-default.yaml";
    static final String PROVIDERS_RESOURCE = "builtin-providers.yaml";

    /** Provider id in {@code builtin-providers.yaml} -> the environment variable that enables it. */
    static final Map<String, String> KEY_VARIABLES = orderedMap(
            "openai", "OPENAI_API_KEY",
            "openai-responses", "OPENAI_API_KEY",
            "anthropic", "ANTHROPIC_API_KEY",
            "gemini", "GEMINI_API_KEY",
            "openrouter", "OPENROUTER_API_KEY");

    private EmbeddedDefault() {
    }

    static GatewayConfig build(Map<String, String> env) {
        Problems problems = new Problems();
        EnvExpander expander = new EnvExpander(env);
        Mapping base = YamlReader.read(BuiltinCatalog.Resources.text(BASE_RESOURCE), shipped(BASE_RESOURCE), problems);
        Mapping vendors = YamlReader.read(BuiltinCatalog.Resources.text(PROVIDERS_RESOURCE), shipped(PROVIDERS_RESOURCE), problems);

        Entry ownProviders = base.get("providers").orElseThrow(() -> new IllegalStateException("embedded default has no providers"));
        List<Entry> providers = new ArrayList<>(((Mapping) ownProviders.value()).entries());
        Mapping vendorProviders = (Mapping) vendors.get("providers").orElseThrow().value();
        for (Map.Entry<String, String> v : KEY_VARIABLES.entrySet()) {
            String key = env.get(v.getValue());
            if (key != null && !key.isBlank()) {
                providers.add(vendorProviders.get(v.getKey()).orElseThrow(
                        () -> new IllegalStateException(PROVIDERS_RESOURCE + " has no provider " + v.getKey())));
            }
        }
        Mapping root = base.with(new Entry("providers", ownProviders.keyPos(), new Mapping(providers, ownProviders.value().pos())));
        if (providers.size() > ((Mapping) ownProviders.value()).entries().size()) {
            // Only with a real provider: with none, the shipped catalog would contribute nothing, which is a problem in a file.
            root = root.with(new Entry("include", ownProviders.keyPos(), new Scalar(BuiltinCatalog.INCLUDE_NAME, ownProviders.keyPos())));
        }
        return new ConfigBinder(problems, expander).bind(expander.expand(root, problems), GatewayConfig.EMBEDDED_DEFAULT);
    }

    private static String shipped(String resource) {
        return resource + " (embedded default)";
    }

    private static Map<String, String> orderedMap(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return Collections.unmodifiableMap(m);
    }
}
