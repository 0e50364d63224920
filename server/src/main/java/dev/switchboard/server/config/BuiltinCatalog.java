package dev.switchboard.server.config;

import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.server.config.YamlNode.Entry;
import dev.switchboard.server.config.YamlNode.Mapping;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The shipped catalog of popular models ({@code builtin-catalog.yaml} next to this class), pulled into a
 * config by {@code include: builtin-catalog}. Its routes name the provider ids {@link #PROVIDER_IDS}; a
 * config keeps only the routes whose provider it defines, and only the models left with a route. On an id
 * clash the operator's own model wins, and a shipped alias that is already taken is dropped, so the
 * operator can always override or shadow a shipped entry.
 */
final class BuiltinCatalog {
    static final String INCLUDE_NAME = "builtin-catalog";
    static final String RESOURCE = "builtin-catalog.yaml";
    static final String SOURCE = "builtin-catalog.yaml (shipped with Switchboard)";
    /** The provider ids the shipped routes use, in the order they are tried. */
    static final List<String> PROVIDER_IDS = List.of("openai", "openai-responses", "anthropic", "gemini", "openrouter");

    private BuiltinCatalog() {
    }

    /** The shipped catalog's {@code models:} entries, expanded like any config (it uses no variables). */
    static List<Entry> modelEntries(EnvExpander env, Problems problems) {
        Mapping root = env.expand(YamlReader.read(Resources.text(RESOURCE), SOURCE, problems), problems);
        YamlFields top = new YamlFields(ConfigBinder.withoutExtensions(root), root.pos(), "", problems);
        top.allowOnly(List.of("models"));
        return top.map("models", "'models'", "models: {gpt-4o: {...}}").map(f -> f.mapping().entries()).orElse(List.of());
    }

    /**
     * Binds the shipped models that reach one of {@code providerIds} and whose id is still free in
     * {@code names}, claiming their ids and free aliases there.
     */
    static List<ModelEntry> merge(List<Entry> entries, Set<String> providerIds, Namespace names, Problems problems) {
        ModelBinder binder = new ModelBinder(providerIds, ModelBinder.UnknownProviders.DROP, problems);
        List<ModelBinder.Result> chosen = new ArrayList<>();
        for (Entry e : entries) {
            if (names.taken(e.key())) {
                continue;
            }
            ModelBinder.Result r = binder.bind(e);
            if (r.entry().isPresent()) {
                chosen.add(r);
            }
        }
        // Ids first: a shipped alias must never shadow another shipped model's id.
        chosen.forEach(r -> names.addId(r.entry().orElseThrow().id(), r.idPos()));
        List<ModelEntry> out = new ArrayList<>();
        for (ModelBinder.Result r : chosen) {
            ModelEntry m = r.entry().orElseThrow();
            List<String> aliases = r.aliases().stream()
                    .filter(a -> names.claimAlias(a.text(), m.id(), a.pos()).isEmpty())
                    .map(YamlNode.Scalar::text)
                    .toList();
            out.add(m.withAliases(aliases));
        }
        return out;
    }

    /** Class-path resources of this package. */
    static final class Resources {
        private Resources() {
        }

        static String text(String name) {
            try (InputStream in = Optional.ofNullable(BuiltinCatalog.class.getResourceAsStream(name))
                    .orElseThrow(() -> new IllegalStateException("missing resource " + name + " (broken build)"))) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
