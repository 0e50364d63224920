package dev.switchboard.engine.pipeline;

import dev.switchboard.engine.route.Answer;
import dev.switchboard.engine.structured.StructuredOutput;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;

/**
 * The post-process stage for a complete answer: it is named after the model that answered, its JSON is
 * extracted when the request sent to that model asked for JSON (spec 2.5), and its reasoning is shown the
 * way the caller asked ({@code reasoning.format}, {@code reasoning.exclude}; spec 2.4). Streams get the
 * reasoning part from {@link StreamRelay}; their text is never rewritten.
 */
final class PresentAnswer {
    private PresentAnswer() {
    }

    static ChatResponse present(ChatRequest asked, Answer<ChatResponse> answer) {
        ChatResponse response = answer.value().withModel(answer.model().id());
        response = StructuredOutput.present(answer.candidate().request(), response);
        return new ReasoningPresenter(asked.reasoning()).present(response);
    }
}
