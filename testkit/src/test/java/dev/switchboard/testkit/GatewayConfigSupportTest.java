package dev.switchboard.testkit;

import static dev.switchboard.testkit.GatewayConfigSupport.model;
import static dev.switchboard.testkit.GatewayConfigSupport.models;
import static dev.switchboard.testkit.GatewayConfigSupport.openAiProvider;
import static dev.switchboard.testkit.GatewayConfigSupport.providerLine;
import static dev.switchboard.testkit.GatewayConfigSupport.providers;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class GatewayConfigSupportTest {

    @Test
    void aModelIsTheYamlATestWouldHaveWritten() {
        String yaml = models(
                model("plain").route("fake/up-plain"),
                model("rich").aliases("rich-old").limits(200000, 4096).supports("tools", "reasoning")
                        .pricing("{input: 1, output: 2}").with("payg: false").route("a/up-first", "b/vendor/up-second"));

        assertThat(yaml).isEqualTo("""
                models:
                  plain:
                    context_length: 8192
                    max_output_tokens: 1024
                    pricing: {input: 0, output: 0}
                    route: [{provider: fake, model: up-plain}]
                  rich:
                    aliases: [rich-old]
                    context_length: 200000
                    max_output_tokens: 4096
                    supports_tools: true
                    supports_reasoning: true
                    pricing: {input: 1, output: 2}
                    payg: false
                    route: [{provider: a, model: up-first}, {provider: b, model: vendor/up-second}]
                """);
    }

    @Test
    void aProviderIsTheYamlATestWouldHaveWritten() {
        assertThat(providers(openAiProvider("fake", "k1", "k2") + providerLine("breaker: off"))).isEqualTo("""
                providers:
                  fake:
                    type: openai
                    base_url: ${UPSTREAM_OPENAI}
                    keys: ["k1", "k2"]
                    timeouts: {connect: 1s, first_byte: 3s, idle: 3s, total: 10s}
                    breaker: off
                """);
    }

    @Test
    void aModelWithoutARouteOrARouteStepWithoutAProviderIsAMistake() {
        assertThatThrownBy(() -> model("lost").yaml()).hasMessageContaining("lost");
        assertThatThrownBy(() -> model("m").route("up-only").yaml()).hasMessageContaining("up-only");
    }
}
