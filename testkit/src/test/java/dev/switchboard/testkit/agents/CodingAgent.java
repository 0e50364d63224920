package dev.switchboard.testkit.agents;

import dev.switchboard.testkit.FakeUpstream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The coding agents of the suite, each set up the way its documentation tells a user to point it at a
 * gateway (docs/agents.md says the same): a base URL and a key, nothing else of the agent's defaults
 * changed (model, reasoning, tools, caching), plus its documented switches for telemetry and updates.
 * Each also says which of its tools the fake upstream should call for the tool round trip: a read-only
 * one that needs no permission in a non-interactive run, with arguments that make it really run.
 */
enum CodingAgent {
    /** Claude Code ({@code @anthropic-ai/claude-code}): the messages format. */
    CLAUDE_CODE("claude", List.of("claude-opus-5-5")) {
        @Override
        Launch launch(Workspace ws, String gatewayUrl, String key) {
            Map<String, String> env = new LinkedHashMap<>();
            env.put("ANTHROPIC_BASE_URL", gatewayUrl);
            env.put("ANTHROPIC_API_KEY", key);
            // one switch for telemetry, error reporting and the auto-updater (Claude Code's settings docs)
            env.put("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
            env.put("DISABLE_TELEMETRY", "1");
            env.put("DISABLE_AUTOUPDATER", "1");
            env.put("DISABLE_ERROR_REPORTING", "1");
            return new Launch(List.of("-p", PROMPT), env);
        }

        @Override
        List<FakeUpstream.PreferredCall> toolCalls(Workspace ws) {
            return List.of(new FakeUpstream.PreferredCall("Read", "{\"file_path\":\"" + ws.notes() + "\"}"));
        }
    },

    /** Codex ({@code @openai/codex}): the Responses format, through a custom model provider. */
    CODEX("codex", List.of("gpt-6.1-sol")) {
        @Override
        Launch launch(Workspace ws, String gatewayUrl, String key) {
            ws.write(ws.home().resolve(".codex/config.toml"), """
                    model_provider = "switchboard"
                    check_for_update_on_startup = false

                    [analytics]
                    enabled = false

                    [feedback]
                    enabled = false

                    [model_providers.switchboard]
                    name = "Switchboard"
                    base_url = "%s/v1"
                    env_key = "SWITCHBOARD_API_KEY"
                    wire_api = "responses"
                    """.formatted(gatewayUrl));
            return new Launch(List.of("exec", "--skip-git-repo-check", PROMPT), Map.of("SWITCHBOARD_API_KEY", key));
        }

        @Override
        List<FakeUpstream.PreferredCall> toolCalls(Workspace ws) {
            // `exec` is a custom (free-text, grammar) tool in the "functions" namespace, functions__exec upstream:
            // a Responses upstream gets it as a custom tool (the fake answers a custom_tool_call whose input is
            // this `input`), the others as a function taking one string, `input`. The script proves it ran: 6*7.
            return List.of(new FakeUpstream.PreferredCall("functions__exec",
                    "{\"input\":\"text(\\\"" + CODEX_MARKER_PREFIX + "\\\" + (6 * 7))\"}"));
        }

        @Override
        String toolOutputMarker() {
            return CODEX_MARKER_PREFIX + "42";
        }
    },

    /** Gemini CLI ({@code @google/gemini-cli}): the content-parts format. */
    GEMINI_CLI("gemini", List.of("gemini-3.1-pro-preview", "gemini-3.5-flash-lite", "gemini-3.8-flash")) {
        @Override
        Launch launch(Workspace ws, String gatewayUrl, String key) {
            ws.write(ws.home().resolve(".gemini/settings.json"), """
                    {
                      "security": {"auth": {"selectedType": "gemini-api-key"}},
                      "telemetry": {"enabled": false},
                      "privacy": {"usageStatisticsEnabled": false},
                      "general": {"disableAutoUpdate": true, "disableUpdateNag": true}
                    }
                    """);
            Map<String, String> env = new LinkedHashMap<>();
            env.put("GOOGLE_GEMINI_BASE_URL", gatewayUrl);
            env.put("GEMINI_API_KEY", key);
            env.put("GEMINI_CLI_TRUST_WORKSPACE", "true");
            return new Launch(List.of("-p", PROMPT), env);
        }

        @Override
        List<FakeUpstream.PreferredCall> toolCalls(Workspace ws) {
            return List.of(new FakeUpstream.PreferredCall("read_file", "{\"file_path\":\"" + ws.notes() + "\"}"));
        }
    },

    /** opencode ({@code opencode-ai}) with its Anthropic provider: the messages format. */
    OPENCODE("opencode", List.of("claude-sonnet-4-6", "claude-haiku-4-5-20251001")) {
        @Override
        Launch launch(Workspace ws, String gatewayUrl, String key) {
            ws.write(ws.home().resolve(".config/opencode/opencode.json"), """
                    {
                      "autoupdate": false,
                      "share": "disabled",
                      "enabled_providers": ["anthropic"],
                      "provider": {"anthropic": {"options": {"baseURL": "%s/v1", "apiKey": "%s"}}}
                    }
                    """.formatted(gatewayUrl, key));
            Map<String, String> env = new LinkedHashMap<>();
            env.put("OPENCODE_DISABLE_AUTOUPDATE", "1");
            env.put("OPENCODE_DISABLE_MODELS_FETCH", "1");
            return new Launch(List.of("run", PROMPT), env);
        }

        @Override
        List<FakeUpstream.PreferredCall> toolCalls(Workspace ws) {
            return List.of(new FakeUpstream.PreferredCall("read", "{\"filePath\":\"" + ws.notes() + "\"}"));
        }
    };

    /** What every agent is asked. */
    static final String PROMPT = "Read the file notes.txt and tell me what it says.";
    /** The content of notes.txt: seeing it in the final answer proves the tool really ran. */
    static final String NOTES = "switchboard-agent-notes-4711";
    private static final String CODEX_MARKER_PREFIX = "switchboard-agent-exec-";

    private final String binary;
    private final List<String> defaultModels;

    CodingAgent(String binary, List<String> defaultModels) {
        this.binary = binary;
        this.defaultModels = defaultModels;
    }

    /**
     * The model ids this agent version asks for with its defaults (seen in its requests): the catalog must
     * serve each of them, by id or alias, for a user to need nothing but a base URL and a key.
     */
    List<String> defaultModels() {
        return defaultModels;
    }

    String binary() {
        return binary;
    }

    /** Writes the agent's configuration into the workspace and says how to start it. */
    abstract Launch launch(Workspace ws, String gatewayUrl, String key);

    /** The tool call the fake upstream makes first. */
    abstract List<FakeUpstream.PreferredCall> toolCalls(Workspace ws);

    /** Text that the tool's output holds when the tool really ran. */
    String toolOutputMarker() {
        return NOTES;
    }

    /** Arguments after the binary, and the environment added to the workspace's. */
    record Launch(List<String> arguments, Map<String, String> environment) {
    }

    /** A private home and working directory for one run; the working directory holds notes.txt. */
    record Workspace(Path root) {
        static Workspace create(String name) {
            try {
                Workspace ws = new Workspace(Files.createTempDirectory("switchboard-agent-" + name));
                Files.createDirectories(ws.home());
                Files.createDirectories(ws.work());
                Files.writeString(ws.notes(), NOTES + "\n");
                return ws;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        Path home() {
            return root.resolve("home");
        }

        Path work() {
            return root.resolve("work");
        }

        Path notes() {
            return work().resolve("notes.txt");
        }

        void write(Path file, String text) {
            try {
                Files.createDirectories(file.getParent());
                Files.writeString(file, text);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
