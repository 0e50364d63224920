-- Stored responses of the Responses format (POST /v1/responses with store: true).
-- Portable SQL for SQLite and PostgreSQL alike: TEXT ids and JSON, BIGINT times in epoch milliseconds.
-- A response is continued through previous_id; a conversation is read back by walking that link.

CREATE TABLE responses (
    id          TEXT   PRIMARY KEY,                     -- resp_...
    owner_id    TEXT   NOT NULL REFERENCES users (id),  -- the user whose key created it; invisible to others
    previous_id TEXT   REFERENCES responses (id),       -- the response it continues, if any
    model       TEXT   NOT NULL,                        -- the model that answered
    status      TEXT   NOT NULL,                        -- completed | incomplete | failed | cancelled
    input_items TEXT   NOT NULL,                        -- JSON array of the request's own input items, with ids
    body        TEXT   NOT NULL,                        -- JSON of the response object as it was served
    deleted_at  BIGINT,                                 -- hidden by DELETE; the row stays while a later one continues it
    created_at  BIGINT NOT NULL
);
CREATE INDEX ix_responses_previous ON responses (previous_id);
CREATE INDEX ix_responses_owner_time ON responses (owner_id, created_at);
