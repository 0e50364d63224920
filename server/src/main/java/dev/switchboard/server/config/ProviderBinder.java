package dev.switchboard.server.config;

import dev.switchboard.engine.catalog.Ejection;
import dev.switchboard.engine.catalog.ProviderConfig;
import dev.switchboard.engine.catalog.ProviderFlavour;
import dev.switchboard.engine.catalog.ProviderType;
import dev.switchboard.engine.catalog.Timeouts;
import dev.switchboard.server.config.YamlNode.Entry;
import dev.switchboard.server.config.YamlNode.Scalar;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Binds one {@code providers:} entry to a {@link ProviderConfig}, reporting every problem in it.
 * Beyond the documented keys it fills in: {@code base_url} defaults to the vendor's official URL for
 * {@code openai}, {@code anthropic} and {@code gemini}; a trailing slash is dropped so adapters can
 * append paths; unset timeouts default to {@link Timeouts#DEFAULT}. A {@code simulator} needs neither a
 * base URL nor keys.
 */
final class ProviderBinder {
    static final List<String> KEYS = List.of("type", "base_url", "keys", "timeouts", "headers", "streaming", "flavour", "breaker");
    static final List<String> TIMEOUT_KEYS = List.of("connect", "first_byte", "idle", "total");

    /** The simulator runs in-process; this placeholder only satisfies {@link ProviderConfig}'s non-null URL. */
    static final URI SIMULATOR_URL = URI.create("simulator://local");

    private static final String TYPES = String.join(" | ", Arrays.stream(ProviderType.values()).map(ProviderType::wire).toList());
    private static final Set<String> RESERVED_HEADERS = Set.of("host", "content-length", "transfer-encoding", "connection",
            "content-type", "authorization", "x-api-key", "x-goog-api-key");

    private ProviderBinder() {
    }

    /** The vendor's own base URL, what its SDK uses by default. */
    static Optional<URI> officialBaseUrl(ProviderType type) {
        return switch (type) {
            case OPENAI, OPENAI_RESPONSES -> Optional.of(URI.create("https://api.openai.com/v1"));
            case ANTHROPIC -> Optional.of(URI.create("https://api.anthropic.com"));
            case GEMINI -> Optional.of(URI.create("https://generativelanguage.googleapis.com"));
            case SIMULATOR -> Optional.empty();
        };
    }

    static Optional<ProviderConfig> bind(Entry entry, Problems problems) {
        String id = entry.key();
        String where = "provider '" + id + "'";
        int before = problems.size();
        if (!id.matches("[A-Za-z0-9][A-Za-z0-9._-]*")) {
            problems.add(entry.keyPos(), "provider id '" + id + "' must start with a letter or digit and hold only letters, digits, "
                    + "'.', '_' and '-' (e.g. openai, claude-eu" + (id.contains("${") ? "; ${VAR} is expanded in values, not in keys" : "") + ")");
        }
        Optional<YamlFields> f = YamlFields.of(entry, where, "{type: openai, keys: [\"${OPENAI_API_KEY}\"]}", problems);
        if (f.isEmpty()) {
            return Optional.empty();
        }
        YamlFields fields = f.get();
        fields.allowOnly(KEYS);

        Optional<ProviderType> type = type(fields);
        URI baseUrl = type.flatMap(t -> baseUrl(fields, t)).orElse(SIMULATOR_URL);
        List<String> keys = keys(fields, type);
        Timeouts timeouts = timeouts(fields);
        Map<String, String> headers = headers(fields);
        boolean streaming = fields.bool("streaming").orElse(true);
        ProviderFlavour flavour = type.map(t -> flavour(fields, t)).orElse(ProviderFlavour.OPENAI);
        Ejection breaker = breaker(fields);
        if (type.isEmpty() || problems.size() > before) {
            return Optional.empty();
        }
        return Optional.of(new ProviderConfig(id, type.get(), baseUrl, keys, timeouts, headers, streaming, flavour, breaker));
    }

    /** {@code flavour}: which server stands behind a provider of type openai; OpenAI's own rules when not said. */
    private static ProviderFlavour flavour(YamlFields fields, ProviderType type) {
        Optional<Scalar> s = fields.scalar("flavour", "flavour: compatible");
        if (s.isEmpty()) {
            return ProviderFlavour.OPENAI;
        }
        List<String> names = Arrays.stream(ProviderFlavour.values()).map(ProviderFlavour::wire).toList();
        if (type != ProviderType.OPENAI) {
            fields.problems().add(s.get(), fields.label("flavour") + " applies to providers of type openai only (remove it)");
            return ProviderFlavour.OPENAI;
        }
        String text = s.get().text().trim();
        Optional<ProviderFlavour> f = ProviderFlavour.parse(text.toLowerCase(Locale.ROOT));
        if (f.isEmpty()) {
            fields.problems().add(s.get(), "unknown " + fields.label("flavour") + " '" + text + "' (expected one of: "
                    + String.join(", ", names) + Suggestions.hint(text, names)
                    + "; openai for OpenAI's API at any address, compatible for vLLM, DeepSeek and similar servers)");
            return ProviderFlavour.OPENAI;
        }
        return f.get();
    }

    private static Optional<ProviderType> type(YamlFields fields) {
        Optional<Scalar> s = fields.scalar("type", "type: openai");
        if (s.isEmpty()) {
            if (!fields.has("type")) {
                fields.missing("type", "add type: " + TYPES);
            }
            return Optional.empty();
        }
        String t = s.get().text().trim();
        Optional<ProviderType> type = ProviderType.parse(t.toLowerCase(Locale.ROOT));
        if (type.isEmpty()) {
            List<String> names = Arrays.stream(ProviderType.values()).map(ProviderType::wire).toList();
            fields.problems().add(s.get(), "unknown provider type '" + t + "' in " + fields.where() + " (expected one of: " + TYPES
                    + Suggestions.hint(t, names) + "; OpenAI-compatible services such as OpenRouter use type openai)");
        }
        return type;
    }

    /** The configured or official base URL; empty (reported or not needed) when there is none to use. */
    private static Optional<URI> baseUrl(YamlFields fields, ProviderType type) {
        Optional<Scalar> s = fields.scalar("base_url", "base_url: https://api.openai.com/v1");
        if (type == ProviderType.SIMULATOR) {
            s.ifPresent(v -> fields.problems().add(v, "a simulator provider has no base_url; it runs inside the gateway (remove base_url)"));
            return Optional.empty();
        }
        if (s.isEmpty()) {
            return officialBaseUrl(type);
        }
        String text = s.get().text().trim();
        String expected = " (expected an http:// or https:// URL such as https://api.openai.com/v1, what you would give the vendor's own SDK)";
        try {
            URI uri = new URI(text);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
                fields.problems().add(s.get(), fields.label("base_url") + " is not an http(s) URL: '" + text + "'" + expected);
                return Optional.empty();
            }
            if (uri.getRawUserInfo() != null) {
                fields.problems().add(s.get(), fields.label("base_url") + " must not carry credentials (put them in keys)");
                return Optional.empty();
            }
            if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
                fields.problems().add(s.get(), fields.label("base_url") + " must not have a ?query or #fragment" + expected);
                return Optional.empty();
            }
            // Adapters append paths such as /chat/completions; a trailing slash would double it.
            String normalised = text.replaceAll("/+$", "");
            return Optional.of(URI.create(normalised));
        } catch (URISyntaxException e) {
            fields.problems().add(s.get(), fields.label("base_url") + " is not a valid URL: '" + text + "'" + expected);
            return Optional.empty();
        }
    }

    private static List<String> keys(YamlFields fields, Optional<ProviderType> type) {
        // Unknown type: whether keys are needed is unknown too; the type problem is reported already.
        boolean needsKeys = type.isPresent() && type.get() != ProviderType.SIMULATOR;
        String vendor = switch (type.orElse(ProviderType.OPENAI)) {
            case OPENAI, OPENAI_RESPONSES, SIMULATOR -> "OPENAI";
            case ANTHROPIC -> "ANTHROPIC";
            case GEMINI -> "GEMINI";
        };
        String example = "keys: [\"${" + vendor + "_API_KEY}\"]";
        int before = fields.problems().size();
        Optional<List<Scalar>> items = fields.scalars("keys", example);
        if (items.isEmpty()) {
            if (!fields.has("keys") && needsKeys) {
                fields.missing("keys", "add " + example + "; several keys are tried in order");
            }
            return List.of();
        }
        List<String> keys = new ArrayList<>();
        int n = 0;
        for (Scalar s : items.get()) {
            n++;
            // Never echo the value: it is a secret. A stray newline from a secrets file is not part of it.
            String key = s.text().strip();
            if (key.isEmpty()) {
                fields.problems().add(s, "key " + n + " of " + fields.where() + " is empty (is the environment variable set to a value?)");
            } else {
                keys.add(key);
            }
        }
        if (keys.isEmpty() && needsKeys && fields.problems().size() == before) {
            fields.problems().add(fields.entry("keys").orElseThrow().keyPos(), fields.label("keys") + " is empty; a provider of type "
                    + type.get().wire() + " needs at least one API key (e.g. " + example + ")");
        }
        return keys;
    }

    /** {@code breaker: off}, or {@code breaker: {failures: 5, cooldown: 10s}} (each optional); default {@link Ejection#DEFAULT}. */
    private static Ejection breaker(YamlFields fields) {
        Optional<Entry> entry = fields.entry("breaker");
        if (entry.isEmpty()) {
            return Ejection.DEFAULT;
        }
        if (entry.get().value() instanceof YamlNode.Scalar s) {
            if (s.text().trim().equals("off") || s.text().trim().equals("false")) {
                return Ejection.OFF;
            }
            fields.problems().add(s, fields.label("breaker") + " must be off or {failures: 5, cooldown: 10s}, got '" + s.text() + "'");
            return Ejection.DEFAULT;
        }
        Optional<YamlFields> f = fields.map("breaker", "breaker of " + fields.where(), "breaker: {failures: 5, cooldown: 10s}");
        if (f.isEmpty()) {
            return Ejection.DEFAULT;
        }
        YamlFields b = f.get();
        b.allowOnly(List.of("failures", "cooldown"));
        int failures = (int) b.integer("failures", 1, 1000, "failures: 5").orElse(Ejection.DEFAULT.failures());
        return new Ejection(failures, duration(b, "cooldown", Ejection.DEFAULT.cooldown()));
    }

    private static Timeouts timeouts(YamlFields fields) {
        Optional<YamlFields> f = fields.map("timeouts", "timeouts of " + fields.where(), "timeouts: {connect: 5s, first_byte: 60s, idle: 60s, total: 10m}");
        if (f.isEmpty()) {
            return Timeouts.DEFAULT;
        }
        YamlFields t = f.get();
        t.allowOnly(TIMEOUT_KEYS);
        Timeouts d = Timeouts.DEFAULT;
        return new Timeouts(duration(t, "connect", d.connect()), duration(t, "first_byte", d.firstByte()),
                duration(t, "idle", d.idle()), duration(t, "total", d.total()));
    }

    private static Duration duration(YamlFields t, String key, Duration fallback) {
        return t.duration(key, key + ": 30s").orElse(fallback);
    }

    private static Map<String, String> headers(YamlFields fields) {
        Optional<YamlFields> f = fields.map("headers", "headers of " + fields.where(), "headers: {X-Title: Switchboard}");
        if (f.isEmpty()) {
            return Map.of();
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Entry e : f.get().mapping().entries()) {
            String name = e.key();
            if (!name.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
                fields.problems().add(e.keyPos(), "header name '" + name + "' of " + fields.where() + " is not a valid HTTP header name");
                continue;
            }
            if (RESERVED_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
                fields.problems().add(e.keyPos(), "header '" + name + "' of " + fields.where()
                        + " is set by the gateway itself (API keys go in keys; remove this header)");
                continue;
            }
            if (!(e.value() instanceof Scalar s) || s.isNull()) {
                fields.problems().add(e.keyPos(), "header '" + name + "' of " + fields.where() + " must have a single text value, got "
                        + e.value().kind());
                continue;
            }
            if (s.text().indexOf('\r') >= 0 || s.text().indexOf('\n') >= 0) {
                fields.problems().add(s, "header '" + name + "' of " + fields.where() + " must not contain line breaks");
                continue;
            }
            out.put(name, s.text());
        }
        return out;
    }
}
