package dev.switchboard.wire.internal;

import static dev.switchboard.wire.internal.JsonFields.index;
import static dev.switchboard.wire.internal.JsonFields.invalid;
import static dev.switchboard.wire.internal.JsonFields.optArray;
import static dev.switchboard.wire.internal.JsonFields.optBoolean;
import static dev.switchboard.wire.internal.JsonFields.optString;
import static dev.switchboard.wire.internal.JsonFields.optStringArray;
import static dev.switchboard.wire.internal.JsonFields.path;
import static dev.switchboard.wire.internal.JsonFields.requireNonEmptyString;
import static dev.switchboard.wire.internal.JsonFields.wrongType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.SkillRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The gateway's own request fields, read the same way in every client format so the same request means the
 * same thing wherever it is sent: {@code models} and {@code fallbacks} (caller fallback models, at most
 * {@value #MAX_FALLBACKS} in all, whichever fields name them), {@code transforms} (only {@code middle-out}),
 * {@code skill} and {@code skills}, and {@code ignore_defaults}. They are consumed by the gateway and never
 * sent upstream.
 *
 * <p>Not part of the wire API: formats share it, callers outside {@code wire} must not.
 */
public final class GatewayFields {
    public static final int MAX_FALLBACKS = ChatRequest.MAX_FALLBACK_MODELS;
    public static final String MIDDLE_OUT = "middle-out";
    /** Every field this class reads: formats keep them out of what they pass through to an upstream. */
    public static final Set<String> NAMES = Set.of("models", "fallbacks", "transforms", "skill", "skills", "ignore_defaults");

    private GatewayFields() {
    }

    /**
     * The caller's fallback models: {@code fallbacks} ({@code [{"model": id}]}, or plain ids) and then
     * {@code models} (ids), duplicates dropped. More than {@value #MAX_FALLBACKS} named in all is a 400 naming
     * the field that went over.
     */
    public static List<String> fallbacks(ObjectNode root) {
        List<String> named = new ArrayList<>();
        optArray(root, "fallbacks", "fallbacks").ifPresent(a -> {
            for (int i = 0; i < a.size(); i++) {
                JsonNode entry = a.get(i);
                String p = index("fallbacks", i);
                named.add(entry.isTextual() ? nonEmpty(entry.textValue(), p)
                        : entry.isObject() ? requireNonEmptyString(entry, "model", path(p, "model"))
                        : thrown(wrongType(p, "an object {\"model\": id}", entry)));
            }
        });
        int fromFallbacks = named.size();
        List<String> models = optStringArray(root, "models", "models").orElse(List.of());
        for (int i = 0; i < models.size(); i++) {
            named.add(nonEmpty(models.get(i), index("models", i)));
        }
        if (named.size() > MAX_FALLBACKS) {
            String over = models.isEmpty() ? "fallbacks" : "models";
            String which = fromFallbacks > 0 && !models.isEmpty() ? "`fallbacks` and `models` together" : "`" + over + "`";
            throw invalid(over, which + " may name at most " + MAX_FALLBACKS + " fallback models, got " + named.size() + ".");
        }
        return named.stream().distinct().toList();
    }

    /** {@code transforms}: only {@value #MIDDLE_OUT} exists. */
    public static List<String> transforms(ObjectNode root) {
        List<String> transforms = optStringArray(root, "transforms", "transforms").orElse(List.of());
        for (int i = 0; i < transforms.size(); i++) {
            if (!transforms.get(i).equals(MIDDLE_OUT)) {
                throw invalid(index("transforms", i), "`transforms` supports only \"" + MIDDLE_OUT + "\"; got \""
                        + transforms.get(i) + "\".");
            }
        }
        return transforms.stream().distinct().toList();
    }

    /**
     * {@code skill} (one id) first, then {@code skills} (ids, in stacking order); each keeps the field it came from,
     * so the engine's refusal of an unknown one names {@code skill} or {@code skills[i]}. Ids must not be empty;
     * whether they exist is the engine's question.
     */
    public static List<SkillRef> skills(ObjectNode root) {
        List<SkillRef> out = new ArrayList<>();
        optString(root, "skill", "skill").ifPresent(s -> out.add(new SkillRef(nonEmpty(s, "skill", "a skill id"), "skill")));
        List<String> skills = optStringArray(root, "skills", "skills").orElse(List.of());
        for (int i = 0; i < skills.size(); i++) {
            String field = index("skills", i);
            out.add(new SkillRef(nonEmpty(skills.get(i), field, "a skill id"), field));
        }
        return out;
    }

    public static boolean ignoreDefaults(ObjectNode root) {
        return optBoolean(root, "ignore_defaults", "ignore_defaults").orElse(false);
    }

    private static String nonEmpty(String id, String p) {
        return nonEmpty(id, p, "a model id");
    }

    private static String nonEmpty(String id, String p, String what) {
        if (id.isBlank()) {
            throw invalid(p, "`" + p + "` must be " + what + ", got an empty string.");
        }
        return id;
    }

    private static <T> T thrown(RuntimeException e) {
        throw e;
    }
}
