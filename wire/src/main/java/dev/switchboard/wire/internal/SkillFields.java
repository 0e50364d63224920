package dev.switchboard.wire.internal;

import static dev.switchboard.wire.internal.JsonFields.index;
import static dev.switchboard.wire.internal.JsonFields.invalid;
import static dev.switchboard.wire.internal.JsonFields.optString;
import static dev.switchboard.wire.internal.JsonFields.optStringArray;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.SkillRef;
import java.util.ArrayList;
import java.util.List;

/**
 * The skill fields of a request body, read the same way in every format that has room for them
 * (chat-completions, messages, Responses): {@code skill} (one id) first, then {@code skills} (ids, in
 * stacking order). Each id keeps the field it came from, so the engine's refusal of an unknown one names
 * {@code skill} or {@code skills[i]}. Whether the ids exist is the engine's question, not the reader's.
 *
 * <p>Not part of the wire API: formats share it, callers outside {@code wire} must not.
 */
public final class SkillFields {
    private SkillFields() {
    }

    public static List<SkillRef> read(ObjectNode root) {
        List<SkillRef> out = new ArrayList<>();
        optString(root, "skill", "skill").ifPresent(id -> out.add(new SkillRef(nonEmpty(id, "skill"), "skill")));
        List<String> skills = optStringArray(root, "skills", "skills").orElse(List.of());
        for (int i = 0; i < skills.size(); i++) {
            String field = index("skills", i);
            out.add(new SkillRef(nonEmpty(skills.get(i), field), field));
        }
        return out;
    }

    private static String nonEmpty(String id, String field) {
        if (id.isBlank()) {
            throw invalid(field, "`" + field + "` must be a skill id (see GET /v1/skills), got an empty string.");
        }
        return id.strip();
    }
}
