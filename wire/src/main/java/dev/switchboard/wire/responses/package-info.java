/**
 * The OpenAI Responses format ({@code /v1/responses}) as the gateway's clients speak it: request
 * reading and validation, typed conversation items, rendering of response objects and event streams.
 * Start with {@link dev.switchboard.wire.responses.Responses}.
 */
package dev.switchboard.wire.responses;
