package dev.switchboard.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Turns a {@link Prompt} and a {@link Scenario} into the deterministic answer every dialect renders:
 *
 * <ul>
 *   <li>tools offered and the last message not a tool result: a call to the forced tool or the first one
 *       ({@code -parallel}: the first two tools, or the first one twice), arguments from
 *       {@link ArgumentFiller};
 *   <li>last message a tool result: {@code Tool result received: <content>};
 *   <li>otherwise {@code Hello from <model>! You said: <last user text>}.
 * </ul>
 *
 * Quoted text is whitespace-collapsed and cut to {@value #MAX_QUOTE} characters. Text is cut at the first
 * stop string (finish STOP), then to {@code maxTokens} pieces (finish LENGTH); the limit applies to the
 * answer, not to the reasoning trace. Usage: prompt = ceil(content chars / 4); completion = answer pieces
 * (or per call ceil((name + arguments chars) / 4)) plus reasoning pieces; {@code -cache} reports half the
 * prompt as cached.
 */
final class AnswerGenerator {

    static final int MAX_QUOTE = 120;
    static final String REASONING_TEXT = "Let me think about this request step by step before answering.";

    private final AtomicLong callSequence = new AtomicLong();

    Reply reply(Prompt prompt, Scenario scenario) {
        List<String> reasoning = scenario.has(Scenario.Flag.REASONING) || prompt.reasoningRequested()
                ? pieces(REASONING_TEXT)
                : List.of();
        ScriptedAnswer answer = prompt.toolResult().isEmpty() && !prompt.tools().isEmpty()
                ? toolCalls(prompt, scenario, reasoning)
                : text(prompt, reasoning);
        int promptTokens = (prompt.promptChars() + 3) / 4;
        int cached = scenario.has(Scenario.Flag.CACHE) ? promptTokens / 2 : 0;
        int completion = answerTokens(answer) + reasoning.size();
        return new Reply(answer, new ScriptedUsage(promptTokens, completion, reasoning.size(), cached));
    }

    private ScriptedAnswer.ToolCalls toolCalls(Prompt prompt, Scenario scenario, List<String> reasoning) {
        List<Prompt.ToolSpec> tools = prompt.tools();
        Prompt.ToolSpec first = prompt.forcedTool()
                .map(name -> tools.stream().filter(t -> t.name().equals(name)).findFirst()
                        .orElse(new Prompt.ToolSpec(name, TestkitJson.object())))
                .orElse(tools.getFirst());
        List<Prompt.ToolSpec> targets = new ArrayList<>(List.of(first));
        if (scenario.has(Scenario.Flag.PARALLEL)) {
            targets.add(prompt.forcedTool().isEmpty() && tools.size() > 1 ? tools.get(1) : first);
        }
        List<ScriptedAnswer.ToolCall> calls = targets.stream()
                .map(tool -> new ScriptedAnswer.ToolCall(callSequence.incrementAndGet(), tool.name(),
                        TestkitJson.text(ArgumentFiller.fill(tool.parameters()))))
                .toList();
        return new ScriptedAnswer.ToolCalls(calls, reasoning);
    }

    private static ScriptedAnswer.Text text(Prompt prompt, List<String> reasoning) {
        String full = prompt.toolResult()
                .map(result -> "Tool result received: " + quote(result))
                .orElseGet(() -> "Hello from " + prompt.model() + "! You said: " + quote(prompt.lastUserText()));
        Optional<String> stop = firstStop(full, prompt.stop());
        String cut = stop.map(s -> full.substring(0, full.indexOf(s))).orElse(full);
        ScriptedAnswer.Finish finish = ScriptedAnswer.Finish.STOP;
        List<String> pieces = pieces(cut);
        if (prompt.maxTokens().isPresent() && pieces.size() > prompt.maxTokens().get()) {
            pieces = pieces.subList(0, Math.max(0, prompt.maxTokens().get()));
            finish = ScriptedAnswer.Finish.LENGTH;
            stop = Optional.empty();
        }
        return new ScriptedAnswer.Text(pieces, reasoning, finish, stop);
    }

    private static int answerTokens(ScriptedAnswer answer) {
        return switch (answer) {
            case ScriptedAnswer.Text text -> text.pieces().size();
            case ScriptedAnswer.ToolCalls calls -> calls.calls().stream()
                    .mapToInt(c -> (c.name().length() + c.arguments().length() + 3) / 4).sum();
        };
    }

    private static String quote(String text) {
        String collapsed = text.strip().replaceAll("\\s+", " ");
        return collapsed.length() <= MAX_QUOTE ? collapsed : collapsed.substring(0, MAX_QUOTE) + "...";
    }

    /** The stop string that occurs first in the text (the longest one when two start at the same place). */
    private static Optional<String> firstStop(String text, List<String> stops) {
        Optional<String> first = Optional.empty();
        int cut = text.length() + 1;
        for (String stop : stops) {
            int at = stop.isEmpty() ? -1 : text.indexOf(stop);
            if (at >= 0 && (at < cut || at == cut && stop.length() > first.get().length())) {
                cut = at;
                first = Optional.of(stop);
            }
        }
        return first;
    }

    /**
     * Splits text into word pieces that concatenate back to it exactly: a piece starts at the text's start
     * and at every space that follows a non-space ({@code "Hello from x"} gives {@code "Hello", " from", " x"}).
     */
    static List<String> pieces(String text) {
        List<String> pieces = new ArrayList<>();
        int start = 0;
        for (int i = 1; i < text.length(); i++) {
            if (text.charAt(i) == ' ' && text.charAt(i - 1) != ' ') {
                pieces.add(text.substring(start, i));
                start = i;
            }
        }
        if (start < text.length()) {
            pieces.add(text.substring(start));
        }
        return pieces;
    }
}
