package dev.switchboard.engine.defaults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.GatewayException;
import dev.switchboard.model.Message;
import dev.switchboard.model.Reasoning;
import dev.switchboard.model.ResponseFormat;
import dev.switchboard.model.Sampling;
import dev.switchboard.wire.Json;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DefaultParamsTest {
    private static DefaultParams parse(String json) {
        return DefaultParams.parse(Json.parse(json));
    }

    private static ChatRequest.Builder request() {
        return ChatRequest.builder("m").addMessage(Message.user("hi"));
    }

    @Test
    void readsEveryParameterThatCanBeSaved() {
        DefaultParams d = parse("""
                {"temperature": 0.4, "top_k": 40, "presence_penalty": 0.5, "frequency_penalty": -0.5, "seed": 7,
                 "max_tokens": 300, "stop": ["END"], "reasoning_effort": "high", "thinking_budget": 2048,
                 "response_format": {"type": "json_object"}, "transforms": ["middle-out"]}""");
        assertThat(d.sampling().temperature()).contains(0.4);
        assertThat(d.sampling().topK()).hasValue(40);
        assertThat(d.sampling().seed()).hasValue(7);
        assertThat(d.maxTokens()).hasValue(300);
        assertThat(d.stop()).containsExactly("END");
        assertThat(d.reasoning().effort()).contains(Reasoning.Effort.HIGH);
        assertThat(d.reasoning().budgetTokens()).hasValue(2048);
        assertThat(d.responseFormat()).contains(ResponseFormat.JSON_OBJECT);
        assertThat(d.transforms()).containsExactly("middle-out");
    }

    @ParameterizedTest(name = "{0} -> param {1}")
    @CsvSource(delimiter = '|', value = {
            "{\"temperature\": 2.5}|temperature",
            "{\"temperature\": \"hot\"}|temperature",
            "{\"top_p\": 1.5}|top_p",
            "{\"max_tokens\": 0}|max_tokens",
            "{\"stop\": [\"a\",\"b\",\"c\",\"d\",\"e\"]}|stop",
            "{\"reasoning_effort\": \"extreme\"}|reasoning_effort",
            "{\"thinking_budget\": -1}|thinking_budget",
            "{\"thinking\": \"maybe\"}|thinking",
            "{\"response_format\": {\"type\": \"yaml\"}}|response_format.type",
            "{\"transforms\": [\"compress\"]}|transforms",
            "{\"messages\": []}|messages",
            "{\"model\": \"x\"}|model",
            "{\"stream\": true}|stream",
            "{\"tools\": []}|tools",
            "{\"temprature\": 1}|temprature",
    })
    void invalidDefaultsAreA400NamingTheField(String json, String param) {
        assertThatThrownBy(() -> parse(json)).isInstanceOfSatisfying(GatewayException.class, e -> {
            assertThat(e.error().status()).isEqualTo(400);
            assertThat(e.error().param()).contains(param);
        });
    }

    @Test
    void aBodyThatIsNotAnObjectIsA400() {
        assertThatThrownBy(() -> parse("[1]")).isInstanceOfSatisfying(GatewayException.class,
                e -> assertThat(e.error().status()).isEqualTo(400));
    }

    @Test
    void fillsOnlyWhatTheRequestLeftUnset() {
        DefaultParams d = parse("{\"temperature\": 0.4, \"max_tokens\": 300, \"stop\": [\"END\"], \"seed\": 3,"
                + " \"response_format\": {\"type\": \"json_object\"}, \"transforms\": [\"middle-out\"]}");

        ChatRequest empty = d.applyTo(request().build());
        assertThat(empty.sampling().temperature()).contains(0.4);
        assertThat(empty.maxTokens()).hasValue(300);
        assertThat(empty.stop()).containsExactly("END");
        assertThat(empty.sampling().seed()).hasValue(3);
        assertThat(empty.responseFormat()).isEqualTo(ResponseFormat.JSON_OBJECT);
        assertThat(empty.transforms()).containsExactly("middle-out");

        ChatRequest set = d.applyTo(request().sampling(Sampling.DEFAULT.withTemperature(Optional.of(1.5)))
                .maxTokens(10).stop(List.of("STOP")).build());
        assertThat(set.sampling().temperature()).contains(1.5);
        assertThat(set.maxTokens()).hasValue(10);
        assertThat(set.stop()).containsExactly("STOP");
        assertThat(set.sampling().seed()).hasValue(3);
    }

    @Test
    void temperatureAndTopPAreOneChoice() {
        DefaultParams d = parse("{\"temperature\": 0.4}");
        ChatRequest r = d.applyTo(request().sampling(Sampling.DEFAULT.withTopP(Optional.of(0.9))).build());
        assertThat(r.sampling().temperature()).isEmpty();
        assertThat(r.sampling().topP()).contains(0.9);
    }

    @Test
    void reasoningControlsAreOneChoiceAndTheRequestsPresentationIsKept() {
        DefaultParams d = parse("{\"reasoning_effort\": \"high\", \"thinking_budget\": 4000}");
        Reasoning off = new Reasoning(Optional.empty(), Optional.of(Reasoning.Mode.OFF), OptionalInt.empty(),
                Reasoning.Format.SEPARATE, false, Optional.empty());
        assertThat(d.applyTo(request().reasoning(off).build()).reasoning()).isEqualTo(off);

        Reasoning inline = new Reasoning(Optional.empty(), Optional.empty(), OptionalInt.empty(), Reasoning.Format.INLINE,
                true, Optional.empty());
        Reasoning applied = d.applyTo(request().reasoning(inline).build()).reasoning();
        assertThat(applied.effort()).contains(Reasoning.Effort.HIGH);
        assertThat(applied.budgetTokens()).hasValue(4000);
        assertThat(applied.format()).isEqualTo(Reasoning.Format.INLINE);
        assertThat(applied.exclude()).isTrue();
    }

    @Test
    void noDefaultsChangeNothing() {
        ChatRequest r = request().build();
        assertThat(DefaultParams.NONE.applyTo(r)).isEqualTo(r);
        assertThat(parse("{}").applyTo(r)).isEqualTo(r);
    }
}
