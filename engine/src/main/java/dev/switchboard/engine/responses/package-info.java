/**
 * Stateful Responses conversations: the {@link dev.switchboard.engine.responses.ResponsesService} that
 * rebuilds a stored chain into one canonical request for any provider and stores each answer, and the
 * {@link dev.switchboard.engine.responses.ResponseStore} port a store module implements.
 */
package dev.switchboard.engine.responses;
