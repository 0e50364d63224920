/**
 * Accounts: users, their balances and API keys, admin keys, and the storage port they need.
 *
 * <p>Nothing here touches JDBC: {@link dev.switchboard.engine.account.AccountStore} and
 * {@link dev.switchboard.engine.account.AdminKeyStore} are the ports a store module implements.
 * Secrets (API keys, admin keys, passwords) enter this package only to be hashed; records that
 * carry one redact it from {@code toString()} so a stray log line cannot leak it. Money is
 * integer nano-dollars (see {@link dev.switchboard.engine.account.Usd}).
 */
package dev.switchboard.engine.account;
