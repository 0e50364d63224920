package dev.switchboard.wire.gemini;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.GatewayException;
import dev.switchboard.model.Message;
import dev.switchboard.model.Reasoning;
import dev.switchboard.model.Role;
import dev.switchboard.wire.Json;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class GeminiFacadeTest {

    @Test
    void pathPutsTheModelInTheUrl() {
        assertThat(Gemini.path("gemini-2.5-flash", false)).isEqualTo("/v1beta/models/gemini-2.5-flash:generateContent");
        assertThat(Gemini.path("models/gemini-2.5-flash", true))
                .isEqualTo("/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
        assertThat(Gemini.path("tuned/x:y?z", false)).isEqualTo("/v1beta/models/tuned%2Fx%3Ay%3Fz:generateContent");
    }

    @Test
    void theModelComesFromThePathNeverTheBody() {
        ChatRequest r = Gemini.fromClient("from-path", Json.parse("{\"model\":\"from-body\",\"contents\":[{\"parts\":[{\"text\":\"hi\"}]}]}"),
                true);

        assertThat(r.model()).isEqualTo("from-path");
        assertThat(r.stream()).isTrue();
        assertThat(Json.write(Gemini.toUpstream(r))).doesNotContain("from-path").doesNotContain("from-body");
    }

    @Test
    void modelResourcesHaveGooglesShape() {
        JsonNode m = Gemini.modelResource("switchboard-demo", "Switchboard Demo", Optional.empty(), 128000, 8192, true);

        assertThat(m.get("name").asText()).isEqualTo("models/switchboard-demo");
        assertThat(m.get("baseModelId").asText()).isEqualTo("switchboard-demo");
        assertThat(m.get("inputTokenLimit").asLong()).isEqualTo(128000);
        assertThat(m.get("outputTokenLimit").asLong()).isEqualTo(8192);
        assertThat(m.get("supportedGenerationMethods").toString()).contains("\"generateContent\"");
        assertThat(m.get("thinking").asBoolean()).isTrue();
        assertThat(m.has("description")).isFalse();

        JsonNode list = Gemini.modelList(List.of(m.deepCopy()), Optional.of("next"));
        assertThat(list.get("models")).hasSize(1);
        assertThat(list.get("nextPageToken").asText()).isEqualTo("next");
        assertThat(Gemini.modelList(List.of(), Optional.empty()).has("nextPageToken")).isFalse();
    }

    @Test
    void toolResultWithoutAnyNameIsA400NotABadUpstreamRequest() {
        ChatRequest r = ChatRequest.builder("m")
                .addMessage(new Message(Role.USER, List.of(new ContentBlock.ToolResult("unknown", Optional.empty(),
                        List.of(ContentBlock.Text.of("x")), false, Optional.empty()))))
                .build();

        GatewayException e = catchThrowableOfType(GatewayException.class,
                () -> Gemini.toUpstream(r));

        assertThat(e.error().status()).isEqualTo(400);
        assertThat(e.error().param()).hasValue("messages[0].content[0]");
    }

    @Test
    void effortWithABudgetSendsOnlyTheBudget() {
        Reasoning both = new Reasoning(Optional.of(Reasoning.Effort.HIGH), Optional.empty(), OptionalInt.of(500),
                Reasoning.Format.SEPARATE, false, Optional.empty());

        JsonNode t = GeminiUpstreamRequestWriter.thinking(both, GeminiUpstreamOptions.DEFAULT);

        assertThat(t).isEqualTo(Json.parse("{\"thinkingBudget\":500,\"includeThoughts\":true}"));
    }
}
