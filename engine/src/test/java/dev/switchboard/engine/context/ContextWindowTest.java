package dev.switchboard.engine.context;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.engine.catalog.Capabilities;
import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.catalog.Pricing;
import dev.switchboard.engine.catalog.ReasoningProfile;
import dev.switchboard.engine.catalog.RouteTarget;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ContextWindowTest {
    private static ModelEntry model(long context, int maxOutput) {
        return new ModelEntry("small", List.of(), Optional.empty(), "test", context, maxOutput, Capabilities.TEXT_ONLY,
                ReasoningProfile.NONE, Pricing.FREE, List.of(), List.of(new RouteTarget("p", "up")));
    }

    /** {@code n} messages of 100 estimated tokens each. */
    private static ChatRequest.Builder conversation(int n) {
        List<Message> messages = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String text = ("m" + i + " ").repeat(200).substring(0, 400);
            messages.add(i % 2 == 0 ? Message.user(text) : Message.assistant(text));
        }
        return ChatRequest.builder("small").messages(messages);
    }

    @Test
    void aRequestThatFitsIsSentAsItIs() {
        ChatRequest r = conversation(5).maxTokens(100).build();
        assertThat(ContextWindow.fit(r, model(600, 200))).isEqualTo(new ContextWindow.Fits(r));
    }

    @Test
    void anOverflowWithoutTheTransformIsA400SayingByHowMuchAndHowToFixIt() {
        ChatRequest r = conversation(10).maxTokens(100).build();
        ContextWindow.Fit fit = ContextWindow.fit(r, model(600, 200));
        assertThat(fit).isInstanceOf(ContextWindow.Overflow.class);
        var error = ((ContextWindow.Overflow) fit).error();
        assertThat(error.status()).isEqualTo(400);
        assertThat(error.param()).contains("messages");
        // 1000 prompt + 100 reserved - 600
        assertThat(error.message()).contains("overflows by about 500 tokens").contains("\"transforms\": [\"middle-out\"]")
                .contains("'small'");
    }

    @Test
    void withoutMaxTokensADefaultReserveCappedByTheModelIsKept() {
        ChatRequest r = conversation(5).build();
        // 500 + min(1024, 200) = 700 > 600
        assertThat(ContextWindow.fit(r, model(600, 200))).isInstanceOf(ContextWindow.Overflow.class);
        assertThat(ContextWindow.fit(r, model(700, 200))).isInstanceOf(ContextWindow.Fits.class);
        // 500 + 1024 > 1500; = 1524
        assertThat(ContextWindow.fit(r, model(1500, 1500))).isInstanceOf(ContextWindow.Overflow.class);
        assertThat(ContextWindow.fit(r, model(1524, 1500))).isInstanceOf(ContextWindow.Fits.class);
    }

    @Test
    void middleOutTrimsToFitTheWindowMinusTheReserve() {
        ChatRequest r = conversation(10).maxTokens(100).transforms(List.of(MiddleOut.NAME)).build();
        ContextWindow.Fit fit = ContextWindow.fit(r, model(600, 200));
        assertThat(fit).isInstanceOf(ContextWindow.Trimmed.class);
        ContextWindow.Trimmed t = (ContextWindow.Trimmed) fit;
        assertThat(t.request().messages()).hasSize(5);
        assertThat(t.dropped()).isEqualTo(5);
        assertThat(t.request().messages().getFirst()).isEqualTo(r.messages().getFirst());
        assertThat(t.request().messages().getLast()).isEqualTo(r.messages().getLast());
        assertThat(t.request().maxTokens()).isEqualTo(r.maxTokens());
    }

    @Test
    void theSystemPromptIsNeverDroppedAndCountsAgainstTheBudget() {
        ChatRequest r = conversation(10).maxTokens(100).transforms(List.of(MiddleOut.NAME))
                .system(List.of(ContentBlock.Text.of("s".repeat(400)))).build();
        ContextWindow.Trimmed t = (ContextWindow.Trimmed) ContextWindow.fit(r, model(600, 200));
        assertThat(t.request().system()).isEqualTo(r.system());
        assertThat(t.request().messages()).hasSize(4);
    }

    @Test
    void middleOutThatCannotFitIsStillA400() {
        ChatRequest r = conversation(10).maxTokens(100).transforms(List.of(MiddleOut.NAME)).build();
        ContextWindow.Fit fit = ContextWindow.fit(r, model(250, 200));
        assertThat(fit).isInstanceOf(ContextWindow.Overflow.class);
        assertThat(((ContextWindow.Overflow) fit).error().message()).contains("even after middle-out");
        assertThat(((ContextWindow.Overflow) fit).error().param()).contains("messages");
    }

    @Test
    void aLargerWindowNeedsNoTrimming() {
        ChatRequest r = conversation(10).maxTokens(100).transforms(List.of(MiddleOut.NAME)).build();
        assertThat(ContextWindow.fit(r, model(2000, 200))).isEqualTo(new ContextWindow.Fits(r));
    }
}
