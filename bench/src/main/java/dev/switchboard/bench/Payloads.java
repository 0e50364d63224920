package dev.switchboard.bench;

import java.nio.charset.StandardCharsets;

/** Representative wire payloads for the benchmarks (shapes of real traffic, sizes of typical requests). */
final class Payloads {
    private Payloads() {
    }

    /** A typical chat-completions request of about 1 KB: system prompt, a few turns, one tool, sampling. */
    static final byte[] CLIENT_REQUEST = """
            {"model":"gpt-4o","messages":[
              {"role":"system","content":"You are a helpful assistant for an online bookshop. Answer briefly, cite the catalogue when you can, and never invent prices."},
              {"role":"user","content":"Do you have the new edition of 'The Pragmatic Programmer'?"},
              {"role":"assistant","content":null,"tool_calls":[{"id":"call_8a1","type":"function","function":{"name":"search_catalogue","arguments":"{\\"query\\":\\"The Pragmatic Programmer\\",\\"edition\\":\\"20th anniversary\\"}"}}]},
              {"role":"tool","tool_call_id":"call_8a1","content":"{\\"found\\":true,\\"title\\":\\"The Pragmatic Programmer, 20th Anniversary Edition\\",\\"price_eur\\":42.5,\\"stock\\":7}"},
              {"role":"assistant","content":"Yes, the 20th anniversary edition is in stock (7 copies) at 42.50 EUR."},
              {"role":"user","content":"Great. Can you also suggest two similar books for a junior developer?"}],
             "tools":[{"type":"function","function":{"name":"search_catalogue","description":"Search the catalogue by title, author or topic.",
               "parameters":{"type":"object","properties":{"query":{"type":"string"},"edition":{"type":"string"}},"required":["query"]}}}],
             "temperature":0.4,"max_completion_tokens":400,"stream":true,"user":"customer-5521"}
            """.getBytes(StandardCharsets.UTF_8);

    /** A typical non-streamed answer of an OpenAI-compatible upstream. */
    static final byte[] UPSTREAM_RESPONSE = """
            {"id":"chatcmpl-9xYz","object":"chat.completion","created":1727000000,"model":"gpt-4o-2024-08-06",
             "choices":[{"index":0,"message":{"role":"assistant","content":"For a junior developer I would suggest 'Clean Code' by Robert C. Martin, which teaches readable code through many small examples, and 'Code Complete' by Steve McConnell, a thorough guide to construction practice. Both are in our catalogue; shall I check stock?","refusal":null,"annotations":[]},"logprobs":null,"finish_reason":"stop"}],
             "usage":{"prompt_tokens":312,"completion_tokens":58,"total_tokens":370,"prompt_tokens_details":{"cached_tokens":256,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}},
             "service_tier":"default","system_fingerprint":"fp_50cad350e4"}
            """.getBytes(StandardCharsets.UTF_8);

    /** One content chunk of an upstream stream, as SSE bytes (a few tokens, as OpenAI sends them). */
    static byte[] contentChunk(int i) {
        return ("data: {\"id\":\"chatcmpl-9xYz\",\"object\":\"chat.completion.chunk\",\"created\":1727000000,"
                + "\"model\":\"gpt-4o-2024-08-06\",\"system_fingerprint\":\"fp_50cad350e4\",\"choices\":[{\"index\":0,"
                + "\"delta\":{\"content\":\" token" + i + " and\"},\"logprobs\":null,\"finish_reason\":null}],"
                + "\"usage\":null}\n\n").getBytes(StandardCharsets.UTF_8);
    }

    static final byte[] FIRST_CHUNK = ("data: {\"id\":\"chatcmpl-9xYz\",\"object\":\"chat.completion.chunk\","
            + "\"created\":1727000000,\"model\":\"gpt-4o-2024-08-06\",\"choices\":[{\"index\":0,\"delta\":{\"role\":"
            + "\"assistant\",\"content\":\"\"},\"logprobs\":null,\"finish_reason\":null}]}\n\n")
            .getBytes(StandardCharsets.UTF_8);

    static final byte[] LAST_CHUNKS = ("data: {\"id\":\"chatcmpl-9xYz\",\"object\":\"chat.completion.chunk\","
            + "\"created\":1727000000,\"model\":\"gpt-4o-2024-08-06\",\"choices\":[{\"index\":0,\"delta\":{},"
            + "\"logprobs\":null,\"finish_reason\":\"stop\"}]}\n\n"
            + "data: {\"id\":\"chatcmpl-9xYz\",\"object\":\"chat.completion.chunk\",\"created\":1727000000,"
            + "\"model\":\"gpt-4o-2024-08-06\",\"choices\":[],\"usage\":{\"prompt_tokens\":312,"
            + "\"completion_tokens\":58,\"total_tokens\":370}}\n\ndata: [DONE]\n\n").getBytes(StandardCharsets.UTF_8);
}
