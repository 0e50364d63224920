package dev.switchboard.wire.gemini;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.wire.Json;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A Gemini client's functionResponse.response reaches Google unchanged, whatever its shape. */
class GeminiFunctionResponseRoundTripTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"output\":\"4°C\"}",
        "{\"error\":\"timeout\"}",
        "{\"output\":{\"temp\":4}}",
        "{\"error\":{\"code\":504,\"detail\":\"slow\"}}",
        "{\"temp\":4,\"sky\":\"clear\"}",
        "{}",
        "{\"output\":\"fine\",\"error\":null}",
    })
    void responseObjectSurvives(String response) {
        JsonNode body = Json.parse("""
                {"contents":[
                  {"role":"user","parts":[{"text":"hi"}]},
                  {"role":"model","parts":[{"functionCall":{"name":"f","args":{}}}]},
                  {"role":"user","parts":[{"functionResponse":{"name":"f","response":%s}}]}]}
                """.formatted(response));

        JsonNode sent = Gemini.toUpstream(Gemini.fromClient("m", body)).at("/contents/2/parts/0/functionResponse");

        assertThat(sent.get("response")).isEqualTo(Json.parse(response));
        assertThat(sent.get("name").asText()).isEqualTo("f");
        assertThat(sent.get("id").asText()).isEqualTo("call_1_0");
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"error\":\"timeout\"}", "{\"error\":{\"code\":1}}", "{\"output\":\"x\",\"error\":null}"})
    void aNonNullErrorKeyMarksTheResultAsAnError(String response) {
        JsonNode body = Json.parse("""
                {"contents":[{"role":"model","parts":[{"functionCall":{"name":"f"}}]},
                  {"role":"user","parts":[{"functionResponse":{"name":"f","response":%s}}]}]}
                """.formatted(response));

        ContentBlock.ToolResult result = (ContentBlock.ToolResult) Gemini.fromClient("m", body).messages().get(1)
                .content().get(0);

        assertThat(result.isError()).isEqualTo(!response.contains("null"));
        assertThat(result.callId()).isEqualTo("call_0_0");
    }
}
