-- Dashboard sign-in: a role per user, login sessions, and counters that throttle failed sign-ins.
-- Portable SQL for SQLite and PostgreSQL alike, as in V1: TEXT ids, BIGINT times (epoch milliseconds, UTC).

ALTER TABLE users ADD COLUMN role TEXT NOT NULL DEFAULT 'user';   -- user | admin

-- One row per signed-in browser. The cookie value is never stored, only its SHA-256, so a copy of the
-- database opens no session; deleting the row signs the session out on every instance at once.
CREATE TABLE dashboard_sessions (
    token_hash   TEXT   PRIMARY KEY,                                   -- SHA-256 hex of the cookie value
    id           TEXT   NOT NULL,                                      -- ses_..., names the session in logs
    user_id      TEXT   NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    csrf_token   TEXT   NOT NULL,
    created_at   BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL,                                      -- for idle expiry
    expires_at   BIGINT NOT NULL                                       -- absolute expiry
);
CREATE UNIQUE INDEX ux_dashboard_sessions_id ON dashboard_sessions (id);
CREATE INDEX ix_dashboard_sessions_user ON dashboard_sessions (user_id);
CREATE INDEX ix_dashboard_sessions_expiry ON dashboard_sessions (expires_at);

-- Fixed-window event counters shared by every instance: failed sign-ins per login name (hashed, whether
-- or not such an account exists) and per client address, sign-ups per address.
CREATE TABLE login_throttle (
    subject      TEXT    PRIMARY KEY,   -- login:<sha256 of the lower-cased login> | addr:<address> | signup:<address>
    events       INTEGER NOT NULL,
    window_start BIGINT  NOT NULL
);
