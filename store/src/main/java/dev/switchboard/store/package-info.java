/**
 * JDBC implementations of the engine's storage ports, on SQLite (the embedded default) or
 * PostgreSQL (production), with one set of Flyway migrations under {@code db/migration} that runs
 * on both. Start with {@link dev.switchboard.store.Database#open(String)}.
 */
package dev.switchboard.store;
