package dev.switchboard.wire.gemini;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.model.GatewayException;
import dev.switchboard.wire.Json;
import org.junit.jupiter.api.Test;

/** What a Gemini upstream takes: schemas it can read, generation settings and tools it knows. */
class GeminiUpstreamRulesTest {

    private static JsonNode json(String text) {
        return Json.parse(text.getBytes());
    }

    @Test
    void referencesAreResolvedAndTheirSiblingsKept() {
        JsonNode reduced = GeminiJsonSchemas.reduce(json("""
                {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
                 "$defs": {"Point": {"type": "object", "properties": {"x": {"type": "number"}}, "required": ["x"]}},
                 "properties": {"at": {"$ref": "#/$defs/Point", "description": "Where."},
                                "path": {"type": "array", "items": {"$ref": "#/$defs/Point"}}}}"""));

        assertThat(reduced.has("$defs") || reduced.has("$schema")).isFalse();
        assertThat(Json.write(reduced)).doesNotContain("$ref");
        assertThat(reduced.at("/properties/at/type").asText()).isEqualTo("object");
        assertThat(reduced.at("/properties/at/description").asText()).isEqualTo("Where.");
        assertThat(reduced.at("/properties/at/properties/x/type").asText()).isEqualTo("number");
        assertThat(reduced.at("/properties/path/items/required/0").asText()).isEqualTo("x");
    }

    @Test
    void recursionIsCutAndConstraintsGeminiCannotEnforceMoveIntoTheDescription() {
        JsonNode reduced = GeminiJsonSchemas.reduce(json("""
                {"type": "OBJECT", "definitions": {"Node": {"type": "object", "properties": {
                    "name": {"type": "string", "pattern": "^[a-z]+$", "maxLength": 20, "description": "Lower case."},
                    "kind": {"const": "leaf"},
                    "children": {"type": "array", "items": {"$ref": "#/definitions/Node"}}}}},
                 "properties": {"tree": {"$ref": "#/definitions/Node"}, "any": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
                                "both": {"allOf": [{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
                                                   {"properties": {"b": {"type": "string"}}, "required": ["b"]}]}},
                 "not": {"required": ["x"]}, "examples": [{}]}"""));

        assertThat(reduced.path("type").asText()).isEqualTo("object");
        assertThat(reduced.has("not") || reduced.has("examples") || reduced.has("definitions")).isFalse();
        JsonNode name = reduced.at("/properties/tree/properties/name");
        assertThat(name.has("pattern")).isFalse();
        assertThat(name.path("description").asText()).isEqualTo("Lower case. (pattern: ^[a-z]+$; maxLength: 20)");
        assertThat(reduced.at("/properties/tree/properties/kind/enum/0").asText()).isEqualTo("leaf");
        assertThat(reduced.at("/properties/tree/properties/children/items/description").asText()).contains("recursive");
        assertThat(reduced.at("/properties/any/anyOf")).hasSize(2);
        assertThat(reduced.at("/properties/both/properties").has("a")).isTrue();
        assertThat(reduced.at("/properties/both/properties").has("b")).isTrue();
        assertThat(reduced.at("/properties/both/required")).hasSize(2);
    }

    @Test
    void unknownGenerationSettingsAndToolKindsAreRefusedByName() {
        assertThatThrownBy(() -> Gemini.fromClient("m", json("""
                {"contents": [{"role": "user", "parts": [{"text": "hi"}]}], "generationConfig": {"topP": 0.5, "repetitionPenalty": 1.2}}""")))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.error().status()).isEqualTo(400);
                    assertThat(e.error().param()).contains("generationConfig.repetitionPenalty");
                });
        assertThatThrownBy(() -> Gemini.fromClient("m", json("""
                {"contents": [{"role": "user", "parts": [{"text": "hi"}]}], "tools": [{"webBrowser": {}}]}""")))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.error().message()).contains("webBrowser"));

        JsonNode known = Gemini.toUpstream(Gemini.fromClient("m", json("""
                {"contents": [{"role": "user", "parts": [{"text": "hi"}]}], "tools": [{"google_search": {}}],
                 "generationConfig": {"responseLogprobs": true, "logprobs": 3}}""")));
        assertThat(known.at("/generationConfig/logprobs").asInt()).isEqualTo(3);
        assertThat(known.at("/tools/0").has("google_search")).isTrue();
    }

    @Test
    void audioIsCarriedToGeminiAndRefusedWhereItCannotGo() {
        dev.switchboard.model.ChatRequest r = dev.switchboard.wire.openai.OpenAi.fromClient(json("""
                {"model": "m", "messages": [{"role": "user", "content": [{"type": "text", "text": "Transcribe."},
                  {"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": "wav"}}]}]}"""));

        JsonNode part = Gemini.toUpstream(r).at("/contents/0/parts/1/inlineData");
        assertThat(part.path("mimeType").asText()).isEqualTo("audio/wav");
        assertThat(part.path("data").asText()).isEqualTo("UklGRg==");
        assertThatThrownBy(() -> dev.switchboard.wire.anthropic.Anthropic.toUpstream(r, "u", false, 100))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.error().status()).isEqualTo(400);
                    assertThat(e.error().message()).contains("input_audio");
                });
    }

    @Test
    void anotherProvidersFileIdIsRefusedInsteadOfSentAsAUriGoogleCannotOpen() {
        dev.switchboard.model.ChatRequest r = dev.switchboard.wire.openai.OpenAi.fromClient(json("""
                {"model": "m", "messages": [{"role": "user", "content": [{"type": "text", "text": "Summarise."},
                  {"type": "file", "file": {"file_id": "file-abc123"}}]}]}"""));
        assertThatThrownBy(() -> Gemini.toUpstream(r))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.error().status()).isEqualTo(400);
                    assertThat(e.error().message()).contains("file-abc123");
                });
    }

    @Test
    void functionResponsePartsCarryMediaOrAreRefused() {
        String call = """
                {"role": "model", "parts": [{"functionCall": {"name": "shot", "args": {}, "id": "c1"}}]}""";
        JsonNode carried = Gemini.toUpstream(Gemini.fromClient("m", json("""
                {"contents": [{"role": "user", "parts": [{"text": "Take one."}]}, %s,
                  {"role": "user", "parts": [{"functionResponse": {"name": "shot", "id": "c1", "response": {"output": "done"},
                    "parts": [{"inlineData": {"mimeType": "application/pdf", "data": "JVBERg=="}}]}}]}]}""".formatted(call))));
        assertThat(carried.at("/contents/2/parts/1/inlineData/mimeType").asText()).isEqualTo("application/pdf");

        assertThatThrownBy(() -> Gemini.fromClient("m", json("""
                {"contents": [{"role": "user", "parts": [{"text": "Take one."}]}, %s,
                  {"role": "user", "parts": [{"functionResponse": {"name": "shot", "id": "c1", "response": {"output": "done"},
                    "parts": [{"text": "not media"}]}}]}]}""".formatted(call))))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.error().message()).contains("inlineData or fileData"));
    }

    @Test
    void logprobsAreTheCanonicalRequestAndACountNeedsResponseLogprobs() {
        assertThat(Gemini.fromClient("m", json("""
                {"contents": [{"role": "user", "parts": [{"text": "hi"}]}], "generationConfig": {"responseLogprobs": true}}""")).logprobs())
                .hasValue(0);
        assertThatThrownBy(() -> Gemini.fromClient("m", json("""
                {"contents": [{"role": "user", "parts": [{"text": "hi"}]}], "generationConfig": {"logprobs": 3}}""")))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.error().status()).isEqualTo(400);
                    assertThat(e.error().param()).contains("generationConfig.logprobs");
                });
    }
}
