-- Idempotency-Key on chat requests: one row per (API key, caller's idempotency key), claimed by exactly one
-- request with an insert-if-absent; the others wait for its answer and replay it. Portable SQL for SQLite and
-- PostgreSQL alike (TEXT, BIGINT epoch milliseconds), as in V1.
CREATE TABLE chat_idempotency (
    scope        TEXT    PRIMARY KEY,   -- SHA-256 hex of the API key id and the caller's Idempotency-Key
    fingerprint  TEXT    NOT NULL,      -- SHA-256 hex of the request (path, stream framing, body): a reuse with another body is a 409
    owner        TEXT    NOT NULL,      -- the claiming request: <instance>/<request id>
    state        TEXT    NOT NULL,      -- pending | done
    lease_until  BIGINT  NOT NULL,      -- a pending claim whose owner stopped renewing (a crash) may be taken over after this
    expires_at   BIGINT  NOT NULL,      -- a done answer is replayed until this, then forgotten
    request_id   TEXT,                  -- the request whose answer is stored
    status       INTEGER,
    content_type TEXT,
    streamed     INTEGER,               -- 1: the answer was a stream and is replayed as one
    headers      TEXT,                  -- the answer's own response headers, JSON [[name, value], ...]
    body         TEXT                   -- the answer's bytes, base64
);
CREATE INDEX ix_chat_idempotency_expiry ON chat_idempotency (expires_at);
