/**
 * Dashboard login sessions: sign-in with a password, opaque session ids stored hashed in the database (so
 * every instance sees them and signing out revokes them at once), idle and absolute expiry, CSRF tokens,
 * throttled failures, roles. API keys never open a session and session cookies never authenticate a chat
 * request; the HTTP side of both rules is in the server's {@code auth} package.
 */
package dev.switchboard.engine.session;
