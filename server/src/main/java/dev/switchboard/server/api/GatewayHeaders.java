package dev.switchboard.server.api;

import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.GatewayError;
import dev.switchboard.server.http.Exchange;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The gateway's own request headers, read the same way on every chat endpoint: {@code x-switchboard-fallbacks}
 * ({@link FallbackHeader}) and {@code x-switchboard-skills} ({@link SkillsHeader}), for clients whose SDK can set
 * headers but not body fields. Each is a comma-separated list of ids; what it names comes after what the body
 * names. They are consumed here and never forwarded upstream.
 */
final class GatewayHeaders {
    private GatewayHeaders() {
    }

    /** {@code request} with what the gateway's headers of {@code ex} add to it. */
    static ChatRequest apply(Exchange ex, ChatRequest request) {
        return SkillsHeader.apply(ex, FallbackHeader.apply(ex, request));
    }

    /**
     * The ids in header {@code name}, trimmed, in order; empty without the header.
     *
     * @param what    what the ids are, for the refusal ({@code model ids})
     * @param example a value that would be right
     * @throws dev.switchboard.model.GatewayException 400 naming the header when an entry is empty
     */
    static Optional<List<String>> ids(Exchange ex, String name, String what, String example) {
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
