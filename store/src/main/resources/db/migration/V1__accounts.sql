-- Users, their API keys and the balance ledger.
-- One file for SQLite and PostgreSQL alike: TEXT ids, BIGINT money (nano-dollars, CONTRACTS.md §3)
-- and BIGINT times (milliseconds since the epoch, UTC), because the two disagree on everything richer.

CREATE TABLE users (
    id            TEXT   PRIMARY KEY,
    name          TEXT   NOT NULL,
    email         TEXT,                 -- lower-cased; NULLs do not collide in the unique index
    password_hash TEXT,                 -- pbkdf2-sha256$iterations$salt$hash, never the password
    plan          TEXT   NOT NULL,
    balance_nanos BIGINT NOT NULL,
    created_at    BIGINT NOT NULL
);
CREATE UNIQUE INDEX ux_users_name ON users (name);
CREATE UNIQUE INDEX ux_users_email ON users (email);

CREATE TABLE api_keys (
    id           TEXT    PRIMARY KEY,
    user_id      TEXT    NOT NULL REFERENCES users (id),
    name         TEXT    NOT NULL,
    prefix       TEXT    NOT NULL,      -- first 12 characters, for display only
    key_hash     TEXT    NOT NULL,      -- SHA-256 of the secret, hex; the secret is never stored
    models       TEXT    NOT NULL,      -- newline-separated; empty means every model
    endpoints    TEXT    NOT NULL,      -- newline-separated; empty means every endpoint group
    rpm          INTEGER,
    daily_tokens BIGINT,
    expires_at   BIGINT,
    revoked_at   BIGINT,
    created_at   BIGINT  NOT NULL
);
CREATE UNIQUE INDEX ux_api_keys_hash ON api_keys (key_hash);
CREATE INDEX ix_api_keys_user ON api_keys (user_id);

-- Every change of a balance, written in the same transaction as the change.
CREATE TABLE ledger (
    id                  TEXT   PRIMARY KEY,
    user_id             TEXT   NOT NULL REFERENCES users (id),
    kind                TEXT   NOT NULL,   -- CREDIT | CHARGE
    amount_nanos        BIGINT NOT NULL,   -- signed change: credits positive, charges negative
    balance_after_nanos BIGINT NOT NULL,
    request_id          TEXT,              -- the billed request; unique so settlement cannot charge twice
    note                TEXT,
    created_at          BIGINT NOT NULL
);
CREATE UNIQUE INDEX ux_ledger_request ON ledger (request_id);
CREATE INDEX ix_ledger_user_time ON ledger (user_id, created_at);
