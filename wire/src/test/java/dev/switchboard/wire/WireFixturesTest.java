package dev.switchboard.wire;

import dev.switchboard.wire.anthropic.AnthropicFixtures;
import dev.switchboard.wire.gemini.GeminiFixtures;
import dev.switchboard.wire.openai.OpenAiFixtures;
import dev.switchboard.wire.responses.ResponsesFixtures;
import dev.switchboard.wire.testing.FixtureRunner;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * The golden fixtures of every wire format ({@code fixtures/<format>/}), one container per format, run by
 * {@link FixtureRunner} from each format's description ({@code <Format>Fixtures.FORMAT}).
 */
class WireFixturesTest {

    @TestFactory
    Stream<DynamicNode> fixtures() {
        return Stream.of(AnthropicFixtures.FORMAT, OpenAiFixtures.FORMAT, GeminiFixtures.FORMAT, ResponsesFixtures.FORMAT)
                .map(format -> DynamicContainer.dynamicContainer(format.name(), FixtureRunner.run(format)));
    }
}
