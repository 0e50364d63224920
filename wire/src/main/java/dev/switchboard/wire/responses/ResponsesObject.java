package dev.switchboard.wire.responses;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.Usage;
import dev.switchboard.wire.Json;
import java.util.List;
import java.util.Optional;

/**
 * Assembles the response object with every field the OpenAI SDKs require present ({@code error},
 * {@code incomplete_details}, {@code instructions}, {@code temperature}, {@code top_p} and the like may be
 * null but never missing), the echoed request settings, and {@code model} as the model that answered.
 */
final class ResponsesObject {
    private ResponsesObject() {
    }

    static ObjectNode build(ResponsesHeader h, String model, String status, Optional<String> incompleteReason,
                            Optional<GatewayError> error, List<ResponsesItem> output, Optional<Usage> usage) {
        ObjectNode echo = h.echo();
        ObjectNode o = Json.object();
        o.put("id", h.id());
        o.put("object", "response");
        o.put("created_at", h.createdAt());
        o.put("status", status);
        o.put("background", false);
        if (error.isPresent()) {
            ObjectNode e = o.putObject("error");
            e.put("code", errorCode(error.get()));
            e.put("message", error.get().message());
        } else {
            o.putNull("error");
        }
        if (status.equals("incomplete")) {
            ObjectNode d = o.putObject("incomplete_details");
            incompleteReason.ifPresent(r -> d.put("reason", r));
        } else {
            o.putNull("incomplete_details");
        }
        o.set("instructions", echo.remove("instructions"));
        o.set("max_output_tokens", echo.remove("max_output_tokens"));
        o.put("model", model);
        o.set("output", ResponsesItemWriter.write(output));
        o.setAll(echo);
        if (usage.isPresent()) {
            o.set("usage", ResponsesUsageJson.write(usage.get()));
        } else {
            o.putNull("usage");
        }
        return o;
    }

    /** The SDKs validate {@code error.code} against a fixed list; these three are the ones that fit a gateway. */
    static String errorCode(GatewayError e) {
        if (e.status() == 429) {
            return "rate_limit_exceeded";
        }
        return e.status() < 500 ? "invalid_prompt" : "server_error";
    }
}
