-- Billing: reservations (holds) against balances, one usage record per billed request, plan expiry, and
-- idempotent credits. Portable SQL for SQLite and PostgreSQL alike (BIGINT nano-dollars and epoch
-- milliseconds, as in V1).

-- What open reservations hold of the balance: admission reserves with one conditional update
-- (balance_nanos - held_nanos >= amount), settlement releases in the same transaction as the charge.
ALTER TABLE users ADD COLUMN held_nanos BIGINT NOT NULL DEFAULT 0;
-- When the user's plan ends (absent: it does not); an ended plan is pay-as-you-go.
ALTER TABLE users ADD COLUMN plan_expires_at BIGINT;

-- One open reservation per admitted request; deleted when the request settles, or by the sweeper after
-- its deadline (a gateway that died mid-request never settles it).
CREATE TABLE holds (
    request_id   TEXT   PRIMARY KEY,
    user_id      TEXT   NOT NULL REFERENCES users (id),
    key_id       TEXT   NOT NULL,       -- the API key the request came with (key budgets sum holds by key)
    amount_nanos BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL,
    created_at   BIGINT NOT NULL
);
CREATE INDEX ix_holds_expiry ON holds (expires_at);

-- One row per billed request (unique request id: a settlement repeated cannot record or charge twice).
CREATE TABLE usage_records (
    request_id       TEXT    PRIMARY KEY,
    user_id          TEXT    NOT NULL REFERENCES users (id),
    key_id           TEXT    NOT NULL,
    endpoint         TEXT    NOT NULL,   -- the client format's endpoint: chat_completions, messages, ...
    requested_model  TEXT    NOT NULL,
    model            TEXT    NOT NULL,   -- the model that answered, billed at its prices
    provider         TEXT    NOT NULL,
    streamed         INTEGER NOT NULL,   -- 0/1
    input_tokens     BIGINT  NOT NULL,   -- the whole prompt, cache reads and writes included
    output_tokens    BIGINT  NOT NULL,   -- reasoning included
    reasoning_tokens BIGINT  NOT NULL,
    cache_read_tokens     BIGINT NOT NULL,
    cache_write_5m_tokens BIGINT NOT NULL,
    cache_write_1h_tokens BIGINT NOT NULL,
    cost_nanos       BIGINT  NOT NULL,   -- at the answering model's prices, rounded once
    charged_nanos    BIGINT  NOT NULL,   -- what the balance paid: 0 under a plan that covers the model
    plan             TEXT,               -- the plan that covered it, if one did
    provenance       TEXT    NOT NULL,   -- REPORTED | ESTIMATED
    status           TEXT    NOT NULL,   -- COMPLETED | CUT | CLIENT_GONE
    latency_ms       BIGINT  NOT NULL,
    created_at       BIGINT  NOT NULL
);
CREATE INDEX ix_usage_user_time ON usage_records (user_id, created_at);
CREATE INDEX ix_usage_time ON usage_records (created_at);

-- A credit given with an idempotency key is written once per user and key.
ALTER TABLE ledger ADD COLUMN idempotency_key TEXT;
CREATE UNIQUE INDEX ux_ledger_idempotency ON ledger (user_id, idempotency_key);
