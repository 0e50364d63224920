package dev.switchboard.server.api;

import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.SkillRef;
import dev.switchboard.server.http.Exchange;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

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

    /** {@code request} with the header's skills after the body's, or as it is without the header. */
    static ChatRequest apply(Exchange ex, ChatRequest request) {
        Optional<List<String>> header = GatewayHeaders.ids(ex, NAME, "skill ids", "code-reviewer, concise");
        if (header.isEmpty()) {
            return request;
        }
        List<SkillRef> all = new ArrayList<>(request.skills());
        header.get().forEach(id -> all.add(new SkillRef(id, NAME)));
        return request.toBuilder().skills(all).build();
    }
}
