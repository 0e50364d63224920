package dev.switchboard.engine.extend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.GatewayError;
import dev.switchboard.wire.Json;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A catalog seed: operator entries of every kind and the plugins' artifacts, as imported by
 * {@code switchboard extend import FILE} and the admin API, exported by {@code extend export}, and shipped as
 * the starter catalog. The document (YAML or JSON) is
 * <pre>{version: 1, skills: [...], mcp_servers: [...], marketplaces: [...], characters: [...], plugins: [...]}</pre>
 * whose entries are written as the admin API takes them (with their {@code id}); a plugin may carry
 * {@code artifact: {file_name, content_type, content | content_base64 | file}}.
 *
 * @param items     the entries, skills first and marketplaces last (so references resolve in order)
 * @param artifacts by plugin id
 */
public record Seed(List<CatalogItem> items, Map<String, Upload> artifacts) {
    /** The top-level lists, in import order. */
    static final Map<String, ItemKind> SECTIONS = sections();

    public Seed {
        items = List.copyOf(items);
        artifacts = Map.copyOf(artifacts);
    }

    /** An artifact's file name, media type and bytes. */
    public record Upload(String fileName, String contentType, byte[] content) {
        public Upload {
            Objects.requireNonNull(fileName, "fileName");
            Objects.requireNonNull(contentType, "contentType");
            Objects.requireNonNull(content, "content");
        }
    }

    /** Reads an artifact's {@code file}; refusing (400 naming {@code field}) when files cannot be referenced. */
    @FunctionalInterface
    public interface Files {
        byte[] read(String path, String field);

        /** For seeds that arrive over HTTP: they must carry their artifacts inline. */
        Files NONE = (path, field) -> {
            throw GatewayError.invalid(field, field + ": a seed sent over HTTP must carry its artifacts inline"
                    + " (content or content_base64), not as files").toException();
        };
    }

    /** Reads and checks a whole seed document; nothing is written until all of it is valid. */
    public static Seed read(JsonNode root, Files files, Instant now) {
        JsonInput in = JsonInput.of(root, "");
        Set<String> allowed = new HashSet<>(SECTIONS.keySet());
        allowed.add("version");
        in.allowOnly(allowed, Set.of());
        in.integer("version", 1, 1);
        List<CatalogItem> items = new ArrayList<>();
        Map<String, Upload> artifacts = new LinkedHashMap<>();
        for (Map.Entry<String, ItemKind> section : SECTIONS.entrySet()) {
            Set<String> ids = new HashSet<>();
            for (JsonInput entry : in.objects(section.getKey(), 10_000)) {
                JsonInput fields = entry;
                Optional<JsonInput> artifact = Optional.empty();
                if (section.getValue() == ItemKind.PLUGIN && entry.has("artifact")) {
                    artifact = entry.object("artifact");
                    ObjectNode without = ((ObjectNode) entry.node()).deepCopy();
                    without.remove("artifact");
                    fields = JsonInput.of(without, entry.path());
                }
                CatalogItem item = ItemJson.read(section.getValue(), fields, Optional.empty(), now);
                if (!ids.add(item.id())) {
                    throw GatewayError.invalid(entry.field("id"), entry.field("id") + ": '" + item.id()
                            + "' appears twice in " + section.getKey()).toException();
                }
                items.add(item);
                artifact.ifPresent(a -> artifacts.put(item.id(), upload(a, files)));
            }
        }
        return new Seed(items, artifacts);
    }

    private static Upload upload(JsonInput a, Files files) {
        a.allowOnly(Set.of("file_name", "content_type", "content", "content_base64", "file"), Set.of());
        String fileName = a.requiredText("file_name", 128);
        if (!Artifact.validFileName(fileName)) {
            throw GatewayError.invalid(a.field("file_name"), a.field("file_name")
                    + ": expected letters, digits, '.', '_' or '-' (no path), at most 128 characters").toException();
        }
        String contentType = contentType(a.requiredText("content_type", 200), a.field("content_type"));
        int sources = (a.has("content") ? 1 : 0) + (a.has("content_base64") ? 1 : 0) + (a.has("file") ? 1 : 0);
        if (sources != 1) {
            throw GatewayError.invalid(a.path(), a.path() + ": expected exactly one of content, content_base64 or file")
                    .toException();
        }
        byte[] bytes;
        if (a.has("content")) {
            bytes = a.text("content", Limits.ARTIFACT_BYTES, false).orElseThrow().getBytes(StandardCharsets.UTF_8);
        } else if (a.has("content_base64")) {
            try {
                bytes = Base64.getMimeDecoder().decode(a.text("content_base64", Limits.ARTIFACT_BYTES * 2, true).orElseThrow());
            } catch (IllegalArgumentException e) {
                throw GatewayError.invalid(a.field("content_base64"), a.field("content_base64") + ": not valid base64")
                        .toException();
            }
        } else {
            bytes = files.read(a.requiredText("file", 1000), a.field("file"));
        }
        if (bytes.length > Limits.ARTIFACT_BYTES) {
            throw new GatewayError(413, "request_too_large", a.path() + ": the artifact has " + bytes.length
                    + " bytes, more than the " + Limits.ARTIFACT_BYTES + " allowed", Optional.of(a.path()), false).toException();
        }
        return new Upload(fileName, contentType, bytes);
    }

    /** A media type as stored: lower-case type and subtype, an optional charset; a 400 naming {@code field} otherwise. */
    public static String contentType(String raw, String field) {
        String t = raw.strip();
        int semi = t.indexOf(';');
        String normalized = (semi < 0 ? t : t.substring(0, semi)).strip().toLowerCase(java.util.Locale.ROOT)
                + (semi < 0 ? "" : "; " + t.substring(semi + 1).strip());
        if (!Artifact.CONTENT_TYPE.matcher(normalized).matches()) {
            throw GatewayError.invalid(field, field + ": expected a media type such as application/json or"
                    + " text/plain; charset=utf-8, got '" + (raw.length() > 80 ? raw.substring(0, 80) + "..." : raw) + "'")
                    .toException();
        }
        return normalized;
    }

    /** The seed document of these entries (artifacts inline: {@code content} when UTF-8 text, else base64). */
    public ObjectNode toJson() {
        ObjectNode root = Json.object();
        root.put("version", 1);
        for (Map.Entry<String, ItemKind> section : SECTIONS.entrySet()) {
            ArrayNode list = root.putArray(section.getKey());
            for (CatalogItem item : items) {
                if (item.kind() != section.getValue()) {
                    continue;
                }
                ObjectNode o = ItemJson.writeForSeed(item);
                Upload u = artifacts.get(item.id());
                if (item.kind() == ItemKind.PLUGIN && u != null) {
                    ObjectNode a = o.putObject("artifact");
                    a.put("file_name", u.fileName());
                    a.put("content_type", u.contentType());
                    text(u.content()).ifPresentOrElse(t -> a.put("content", t),
                            () -> a.put("content_base64", Base64.getEncoder().encodeToString(u.content())));
                }
                list.add(o);
            }
        }
        return root;
    }

    private static Optional<String> text(byte[] bytes) {
        try {
            String s = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
            return s.chars().anyMatch(c -> c == 0) ? Optional.empty() : Optional.of(s);
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }

    private static Map<String, ItemKind> sections() {
        Map<String, ItemKind> m = new LinkedHashMap<>();
        m.put("skills", ItemKind.SKILL);
        m.put("mcp_servers", ItemKind.MCP_SERVER);
        m.put("characters", ItemKind.CHARACTER);
        m.put("plugins", ItemKind.PLUGIN);
        m.put("marketplaces", ItemKind.MARKETPLACE);
        return java.util.Collections.unmodifiableMap(m);
    }

    /** Ids of entries in this seed, by kind. */
    Set<String> ids(ItemKind kind) {
        Set<String> out = new HashSet<>();
        for (Iterator<CatalogItem> it = items.iterator(); it.hasNext(); ) {
            CatalogItem i = it.next();
            if (i.kind() == kind) {
                out.add(i.id());
            }
        }
        return out;
    }
}
