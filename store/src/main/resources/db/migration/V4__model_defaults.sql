-- Saved per-model default parameters per user (admin API PUT /admin/v1/users/{id}/defaults/{model}).
-- V3 is taken by the responses format's tables on another branch; versions only need to be ordered.
-- Portable SQL as in V1: TEXT ids, BIGINT times (milliseconds since the epoch, UTC).
CREATE TABLE model_defaults (
    user_id    TEXT   NOT NULL REFERENCES users (id),
    model_id   TEXT   NOT NULL,   -- the canonical model id, never an alias
    params     TEXT   NOT NULL,   -- JSON object of chat-completions parameter names, validated when written
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, model_id)
);
