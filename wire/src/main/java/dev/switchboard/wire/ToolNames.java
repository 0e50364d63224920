package dev.switchboard.wire;

import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.Message;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.model.ToolChoice;
import dev.switchboard.model.ToolSpec;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Tool names and tool-call ids as one upstream format accepts them, and the way back. Client formats allow
 * names an upstream refuses (a content-parts client's {@code ns.get_time} at OpenAI, whose names must match
 * {@code ^[a-zA-Z0-9_-]{1,64}$}) and ids longer than it takes (a 64-character messages-format id at OpenAI,
 * which refuses ids over 40 characters). Before a request goes up, every name and id it carries (tools,
 * a named tool choice, calls and results in the history) is rewritten to the target's {@link Rule}; the
 * names and ids in the answer, whole or streamed, are mapped back, so the client sees exactly the names it
 * defined and the ids it knows.
 *
 * <p>The rewriting is deterministic: a name or id the target accepts stays as it is; another one has its
 * refused characters replaced by {@code _} and, when it is too long or would clash with another name,
 * ends in {@code _} and 8 hex digits of its SHA-256. The same name gives the same upstream name on every
 * turn, so a later turn's history matches what the upstream saw before.
 */
public final class ToolNames {

    /** What a target format accepts. */
    public enum Rule {
        /** OpenAI chat completions and Responses: names {@code ^[a-zA-Z0-9_-]{1,64}$}, call ids at most 40 characters. */
        OPENAI(Pattern.compile("[a-zA-Z0-9_-]{1,64}"), 64, Pattern.compile("[a-zA-Z0-9_-]"), false, 40),
        /** Anthropic: names {@code ^[a-zA-Z0-9_-]{1,64}$}; ids are made safe by the format's own writer. */
        ANTHROPIC(Pattern.compile("[a-zA-Z0-9_-]{1,64}"), 64, Pattern.compile("[a-zA-Z0-9_-]"), false, Integer.MAX_VALUE),
        /**
         * Gemini: names start with a letter or {@code _}, then letters, digits, {@code _ . : -}, at most 64;
         * ids are free.
         */
        GEMINI(Pattern.compile("[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}"), 64, Pattern.compile("[a-zA-Z0-9_.:-]"), true, Integer.MAX_VALUE),
        /** A target that takes anything (the in-process simulator). */
        ANY(Pattern.compile("(?s).+"), Integer.MAX_VALUE, Pattern.compile("(?s)."), false, Integer.MAX_VALUE);

        private final Pattern name;
        private final int maxName;
        private final Pattern nameChar;
        private final boolean letterFirst;
        private final int maxId;

        Rule(Pattern name, int maxName, Pattern nameChar, boolean letterFirst, int maxId) {
            this.name = name;
            this.maxName = maxName;
            this.nameChar = nameChar;
            this.letterFirst = letterFirst;
            this.maxId = maxId;
        }

        boolean accepts(String n) {
            return name.matcher(n).matches();
        }
    }

    private static final int HASH_LENGTH = 8;

    private final Rule rule;
    private final Map<String, String> up;
    private final Map<String, String> down;
    private final Map<String, String> idsDown;

    private ToolNames(Rule rule, Map<String, String> up, Map<String, String> down, Map<String, String> idsDown) {
        this.rule = rule;
        this.up = Map.copyOf(up);
        this.down = Map.copyOf(down);
        this.idsDown = Map.copyOf(idsDown);
    }

    /** The names and ids of {@code request} as {@code rule} wants them. */
    public static ToolNames of(ChatRequest request, Rule rule) {
        Objects.requireNonNull(rule, "rule");
        Set<String> names = new LinkedHashSet<>();
        request.tools().forEach(t -> names.add(t.name()));
        if (request.toolChoice() instanceof ToolChoice.Named n) {
            names.add(n.name());
        }
        Set<String> ids = new LinkedHashSet<>();
        for (Message m : request.messages()) {
            for (ContentBlock b : m.content()) {
                if (b instanceof ContentBlock.ToolCall c) {
                    names.add(c.name());
                    ids.add(c.id());
                } else if (b instanceof ContentBlock.ToolResult r) {
                    r.name().ifPresent(names::add);
                    ids.add(r.callId());
                }
            }
        }
        Map<String, String> up = new HashMap<>();
        Map<String, String> down = new HashMap<>();
        // names the target takes as they are keep them; the others get a free name of their own
        for (String n : names) {
            if (rule.accepts(n)) {
                up.put(n, n);
                down.put(n, n);
            }
        }
        for (String n : names) {
            if (!up.containsKey(n)) {
                String renamed = rename(n, rule, down.keySet());
                up.put(n, renamed);
                down.put(renamed, n);
            }
        }
        Map<String, String> idsDown = new HashMap<>();
        for (String id : ids) {
            String shortened = shortenId(id, rule);
            if (!shortened.equals(id)) {
                idsDown.put(shortened, id);
            }
        }
        return new ToolNames(rule, up, down, idsDown);
    }

    private static String rename(String original, Rule rule, Set<String> taken) {
        StringBuilder sb = new StringBuilder();
        original.codePoints().forEach(cp -> {
            String c = new String(Character.toChars(cp));
            sb.append(rule.nameChar.matcher(c).matches() ? c : "_");
        });
        if (sb.isEmpty() || rule.letterFirst && !Character.isLetter(sb.charAt(0)) && sb.charAt(0) != '_') {
            sb.insert(0, '_');
        }
        String candidate = sb.toString();
        if (candidate.length() > rule.maxName || taken.contains(candidate)) {
            String head = candidate.substring(0, Math.min(candidate.length(), rule.maxName - HASH_LENGTH - 1));
            candidate = head + "_" + hash(original);
        }
        return candidate;
    }

    /** An id the target takes: as it is when short enough, else its start and a hash of the whole. */
    static String shortenId(String id, Rule rule) {
        if (id.length() <= rule.maxId) {
            return id;
        }
        return id.substring(0, rule.maxId - HASH_LENGTH - 1) + "_" + hash(id);
    }

    private static String hash(String s) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, HASH_LENGTH / 2);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    /** Whether nothing needs rewriting. */
    public boolean isIdentity() {
        return idsDown.isEmpty() && up.entrySet().stream().allMatch(e -> e.getKey().equals(e.getValue()));
    }

    /** The upstream name of {@code original} (a name this request did not carry is made acceptable the same way). */
    public String upstream(String original) {
        String known = up.get(original);
        return known != null ? known : rule.accepts(original) ? original : rename(original, rule, down.keySet());
    }

    /** The client's name for an upstream name; names the request did not rename come back as they are. */
    public String original(String upstreamName) {
        return down.getOrDefault(upstreamName, upstreamName);
    }

    private String originalId(String upstreamId) {
        return idsDown.getOrDefault(upstreamId, upstreamId);
    }

    /** {@code request} with its tool names and call ids as the target wants them. */
    public ChatRequest apply(ChatRequest request) {
        if (isIdentity()) {
            return request;
        }
        List<ToolSpec> tools = request.tools().stream()
                .map(t -> t.withName(upstream(t.name())))
                .toList();
        ToolChoice choice = request.toolChoice() instanceof ToolChoice.Named n ? new ToolChoice.Named(upstream(n.name()))
                : request.toolChoice();
        List<Message> messages = new ArrayList<>(request.messages().size());
        for (Message m : request.messages()) {
            List<ContentBlock> content = new ArrayList<>(m.content().size());
            for (ContentBlock b : m.content()) {
                content.add(switch (b) {
                    case ContentBlock.ToolCall c -> c.renamed(shortenId(c.id(), rule), upstream(c.name()));
                    case ContentBlock.ToolResult r -> new ContentBlock.ToolResult(shortenId(r.callId(), rule),
                            r.name().map(this::upstream), r.content(), r.isError(), r.cache());
                    default -> b;
                });
            }
            messages.add(new Message(m.role(), content));
        }
        return request.toBuilder().tools(tools).toolChoice(choice).messages(messages).build();
    }

    /** An answer with the client's names and ids. */
    public ChatResponse restore(ChatResponse response) {
        if (isIdentity()) {
            return response;
        }
        return response.withContent(response.content().stream().map(this::restore).toList());
    }

    /** A stream event with the client's names and ids. */
    public StreamEvent restore(StreamEvent event) {
        if (!isIdentity() && event instanceof StreamEvent.BlockStart s && s.block() instanceof ContentBlock.ToolCall) {
            return new StreamEvent.BlockStart(s.index(), restore(s.block()));
        }
        return event;
    }

    private ContentBlock restore(ContentBlock block) {
        if (block instanceof ContentBlock.ToolCall c) {
            return c.renamed(originalId(c.id()), original(c.name()));
        }
        return block;
    }
}
