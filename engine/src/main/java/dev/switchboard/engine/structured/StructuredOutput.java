package dev.switchboard.engine.structured;

import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.ResponseFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The structured-output stage of the pipeline (spec 2.5): when a complete answer was asked for JSON
 * ({@code json_object} or {@code json_schema}) and the model wrapped its JSON in prose or a code fence,
 * the answer's text becomes the JSON payload ({@link JsonExtraction}); when nothing valid can be
 * recovered the answer is left exactly as it was. Streams are never touched (their text has already
 * left). Tool calls, reasoning and every other block are kept as they are.
 *
 * <p>It looks at the request as it was sent to the answering model: the shaper drops
 * {@code response_format} for a model without {@code supports_json}, so such a model's prose is never
 * rewritten.
 */
public final class StructuredOutput {
    private StructuredOutput() {
    }

    public static ChatResponse present(ChatRequest sent, ChatResponse response) {
        if (sent.stream() || sent.responseFormat() instanceof ResponseFormat.Text) {
            return response;
        }
        Optional<String> json = JsonExtraction.extract(response.text());
        if (json.isEmpty()) {
            return response;
        }
        // the text may come in several blocks (around a reasoning block, say): one block with the payload
        // takes the place of the first, the others go
        List<ContentBlock> out = new ArrayList<>();
        boolean placed = false;
        for (ContentBlock b : response.content()) {
            if (b instanceof ContentBlock.Text t) {
                if (!placed) {
                    out.add(new ContentBlock.Text(json.get(), t.cache(), t.signature()));
                    placed = true;
                }
            } else {
                out.add(b);
            }
        }
        return response.withContent(out);
    }
}
