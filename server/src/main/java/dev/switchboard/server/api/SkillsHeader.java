package dev.switchboard.server.api;

import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.SkillRef;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code x-switchboard-skills: code-reviewer, concise}: skills named in a header, accepted on every chat endpoint,
 * for clients that can set headers but not body fields (Google's GenAI SDKs; the content-parts body has no room
 * for them). The ids come after those of the body ({@code skill}, {@code skills}), in the header's order, and
 * count towards the same limit; an error about one of them names the header.
 */
final class SkillsHeader {
    static final String NAME = "x-switchboard-skills";

    private SkillsHeader() {
    }

    /** {@code request} with the header's skill {@code ids} after the body's, in the header's order. */
    static ChatRequest add(ChatRequest request, List<String> ids) {
        List<SkillRef> all = new ArrayList<>(request.skills());
        ids.forEach(id -> all.add(new SkillRef(id, NAME)));
        return request.toBuilder().skills(all).build();
    }
}
