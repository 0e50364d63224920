/**
 * The Anthropic messages format ({@code POST /v1/messages}), both directions, as pure functions over
 * the canonical model: no I/O, no logging, no clock, no randomness. Ids and timestamps come in from the
 * caller.
 *
 * <p>Entry point: {@link dev.switchboard.wire.anthropic.Anthropic} (stateless translations) plus two
 * stateful objects, one per stream: {@link dev.switchboard.wire.anthropic.AnthropicClientStreamWriter}
 * (canonical events to the client's named-event SSE) and
 * {@link dev.switchboard.wire.anthropic.AnthropicUpstreamStreamParser} (an upstream's SSE events to
 * canonical events).
 *
 * <p>What the canonical model cannot carry is kept rather than lost: server-tool and search blocks
 * become {@code Opaque("anthropic", json)}, server tools and unknown top-level fields ride in
 * {@code Passthrough("anthropic")}, thinking signatures are {@code Signature("anthropic", value)}. Only
 * this package emits them again, and only toward Anthropic.
 */
package dev.switchboard.wire.anthropic;
