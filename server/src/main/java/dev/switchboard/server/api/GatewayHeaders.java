package dev.switchboard.server.api;

import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.GatewayError;
import dev.switchboard.server.http.Exchange;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * The gateway's own request headers, read the same way on every chat endpoint: {@code x-switchboard-fallbacks}
 * ({@link FallbackHeader}) and {@code x-switchboard-skills} ({@link SkillsHeader}), for clients whose SDK can set
 * headers but not body fields. Each is a comma-separated list of ids; what it names comes after what the body
 * names. They are consumed here and never forwarded upstream.
 */
final class GatewayHeaders {
    private GatewayHeaders() {
    }

    /** One of the headers: its name, what its ids are and a right value (for the refusal), and what it adds. */
    private record IdsHeader(String name, String what, String example, BiFunction<ChatRequest, List<String>, ChatRequest> add) {
    }

    /** In the order they are applied. */
    private static final List<IdsHeader> HEADERS = List.of(
            new IdsHeader(FallbackHeader.NAME, "model ids", "gpt-4o-mini, claude-haiku", FallbackHeader::add),
            new IdsHeader(SkillsHeader.NAME, "skill ids", "code-reviewer, concise", SkillsHeader::add));

    /** {@code request} with what the gateway's headers of {@code ex} add to it; as it is without them. */
    static ChatRequest apply(Exchange ex, ChatRequest request) {
        ChatRequest out = request;
        for (IdsHeader h : HEADERS) {
            Optional<List<String>> ids = ids(ex, h.name(), h.what(), h.example());
            if (ids.isPresent()) {
                out = h.add().apply(out, ids.get());
            }
        }
        return out;
    }

    /**
     * The ids in header {@code name}, trimmed, in order; empty without the header.
     *
     * @param what    what the ids are, for the refusal ({@code model ids})
     * @param example a value that would be right
     * @throws dev.switchboard.model.GatewayException 400 naming the header when an entry is empty
     */
    private static Optional<List<String>> ids(Exchange ex, String name, String what, String example) {
        Optional<String> header = ex.header(name);
        if (header.isEmpty()) {
            return Optional.empty();
        }
        List<String> ids = new ArrayList<>();
        for (String id : header.get().split(",", -1)) {
            String trimmed = id.strip();
            if (trimmed.isEmpty()) {
                throw GatewayError.invalid(name, "The " + name + " header must be " + what + " separated by commas, e.g. \""
                        + name + ": " + example + "\"; it has an empty entry.").toException();
            }
            ids.add(trimmed);
        }
        return Optional.of(ids);
    }
}
