package dev.switchboard.testkit.it.responses;

import static dev.switchboard.testkit.GatewayConfigSupport.SLOWER;
import static dev.switchboard.testkit.GatewayConfigSupport.simulatorProvider;

import dev.switchboard.testkit.GatewayConfigSupport;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The kinds of upstream a Responses conversation can run on in these tests, each as a gateway model id
 * routed to a provider of that kind: the fake upstream speaking OpenAI chat completions, Anthropic, Gemini
 * or OpenAI's Responses API, and the in-process simulator. Every test parameterised over kinds runs for each kind in {@link #ENABLED}.
 */
enum UpstreamKind {
    OPENAI("openai", "${UPSTREAM_OPENAI}"),
    ANTHROPIC("anthropic", "${UPSTREAM}"),
    GEMINI("gemini", "${UPSTREAM}"),
    RESPONSES("openai-responses", "${UPSTREAM_OPENAI}"),
    SIMULATOR("simulator", "");

    /** The kinds the tests run on: every upstream kind the gateway has an adapter for. */
    static final Set<UpstreamKind> ENABLED = EnumSet.allOf(UpstreamKind.class);

    private final String type;
    private final String baseUrl;

    UpstreamKind(String type, String baseUrl) {
        this.type = type;
        this.baseUrl = baseUrl;
    }

    /** The gateway model id of this kind, optionally with a variant ({@code resp-openai-midfail}). */
    String model(String... variant) {
        return "resp-" + type + (variant.length == 0 ? "" : "-" + String.join("-", variant));
    }

    /**
     * The upstream model name the fake sees for {@link #model}; its suffixes script the fake. Gemini's
     * thinking variant also checks thought signatures as Gemini 3 does ({@code -strictsig}).
     */
    String upstreamModel(String... variant) {
        String name = "up-" + type + (variant.length == 0 ? "" : "-" + String.join("-", variant));
        return this == GEMINI && List.of(variant).contains(ResponsesItSupport.THINK) ? name + "-strictsig" : name;
    }

    /** Whether requests of this kind reach the fake upstream, where the test can read them. */
    boolean recorded() {
        return this != SIMULATOR;
    }

    /** Whether the fake signs (or encrypts) this kind's reasoning and checks what it gets back. */
    boolean signsReasoning() {
        return this == ANTHROPIC || this == GEMINI || this == RESPONSES;
    }

    /** Whether the provider counts reasoning tokens apart (Anthropic's usage has no such count). */
    boolean reportsReasoningTokens() {
        return this != ANTHROPIC;
    }

    String provider() {
        return "p-" + type;
    }

    /** The provider section of the test config. */
    String providerYaml(String upstreamKey) {
        if (this == SIMULATOR) {
            return simulatorProvider(provider());
        }
        return GatewayConfigSupport.provider(provider(), type, baseUrl, SLOWER, upstreamKey);
    }

    /** A model of this kind in the test config, able to take tools, images, reasoning and JSON output. */
    String modelYaml(String... variant) {
        return GatewayConfigSupport.model(model(variant)).limits(100000, 4096).supports("tools", "reasoning", "vision", "json")
                .pricing("{input: 1, output: 2}")
                .route(provider() + "/" + (this == SIMULATOR ? "sim" : upstreamModel(variant)))
                .yaml();
    }

    static Stream<UpstreamKind> enabled() {
        return Stream.of(values()).filter(ENABLED::contains);
    }

    /** Enabled kinds whose requests the test can read at the fake upstream. */
    static Stream<UpstreamKind> recordedKinds() {
        return enabled().filter(UpstreamKind::recorded);
    }

    /** Every ordered pair of two different enabled kinds: a conversation moving from the first to the second. */
    static Stream<Arguments> moves() {
        List<Arguments> out = new ArrayList<>();
        enabled().forEach(from -> enabled().filter(to -> to != from).forEach(to -> out.add(Arguments.of(from, to))));
        return out.stream();
    }
}
