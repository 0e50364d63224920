-- The public catalog ("Extend"): skills, MCP server entries, marketplaces, character cards and plugins.
-- One table for every kind: the columns that lists filter and sort on, plus the kind's own fields as JSON
-- (data). Portable SQL for SQLite and PostgreSQL alike: TEXT ids and JSON, INTEGER flags (0/1), BIGINT counts
-- and times (epoch milliseconds, UTC). Counts change only through conditional updates in the database.

CREATE TABLE extend_items (
    kind         TEXT    NOT NULL,            -- skill | mcp_server | marketplace | character | plugin
    id           TEXT    NOT NULL,
    name         TEXT    NOT NULL,
    description  TEXT    NOT NULL,
    tags         TEXT    NOT NULL,            -- JSON array of normalized tags, in the order given
    search_text  TEXT    NOT NULL,            -- lower-cased name, description and tags: what ?search= scans
    sort_name    TEXT    NOT NULL,            -- lower-cased name, for sort=name
    owner_id     TEXT    REFERENCES users (id) ON DELETE CASCADE,   -- a user's skill; null for the operator's entries
    creator      TEXT    NOT NULL,            -- creator_username of skills, creator of characters
    official     INTEGER NOT NULL,
    visibility   TEXT    NOT NULL,            -- public | unlisted | private (operator entries are public)
    section      TEXT,                        -- plugins
    verified     INTEGER NOT NULL,
    file_name    TEXT,                        -- plugins with an artifact: the name it is served under
    sha256       TEXT,                        -- and the artifact's hash (extend_artifacts)
    content_type TEXT,                        -- and the media type it is served with
    data         TEXT    NOT NULL,            -- JSON of the kind's own fields (a skill's body, a card's texts ...)
    likes        BIGINT  NOT NULL DEFAULT 0,
    use_count    BIGINT  NOT NULL DEFAULT 0,
    forks        BIGINT  NOT NULL DEFAULT 0,
    interactions BIGINT  NOT NULL DEFAULT 0,
    forked_from  TEXT,                        -- kept when the source is deleted: provenance
    created_at   BIGINT  NOT NULL,
    updated_at   BIGINT  NOT NULL,
    PRIMARY KEY (kind, id)
);
CREATE UNIQUE INDEX ux_extend_items_file ON extend_items (file_name);
CREATE INDEX ix_extend_items_owner ON extend_items (owner_id);
CREATE INDEX ix_extend_items_listing ON extend_items (kind, visibility);

CREATE TABLE extend_tags (
    kind    TEXT NOT NULL,
    item_id TEXT NOT NULL,
    tag     TEXT NOT NULL,
    PRIMARY KEY (kind, item_id, tag),
    FOREIGN KEY (kind, item_id) REFERENCES extend_items (kind, id) ON DELETE CASCADE
);
CREATE INDEX ix_extend_tags_tag ON extend_tags (kind, tag);

-- One row per user and liked entry: a second like inserts nothing, so it counts nothing.
CREATE TABLE extend_likes (
    kind       TEXT   NOT NULL,
    item_id    TEXT   NOT NULL,
    user_id    TEXT   NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (kind, item_id, user_id),
    FOREIGN KEY (kind, item_id) REFERENCES extend_items (kind, id) ON DELETE CASCADE
);
CREATE INDEX ix_extend_likes_user ON extend_likes (user_id, kind);

-- Skills a user installed: applied to the user's chat requests that name no skill, in install order.
CREATE TABLE skill_installs (
    user_id      TEXT   NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind         TEXT   NOT NULL DEFAULT 'skill',
    skill_id     TEXT   NOT NULL,
    models       TEXT   NOT NULL,          -- JSON array of canonical model ids; empty: every model
    installed_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, skill_id),
    FOREIGN KEY (kind, skill_id) REFERENCES extend_items (kind, id) ON DELETE CASCADE
);

-- Plugin artifacts by content hash: stored in the database so every instance serves the same bytes.
CREATE TABLE extend_artifacts (
    sha256     TEXT   PRIMARY KEY,
    size       BIGINT NOT NULL,
    content    BYTEA  NOT NULL,
    created_at BIGINT NOT NULL
);
