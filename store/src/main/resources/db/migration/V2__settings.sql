-- Instance-wide values that live in the database so every gateway instance sees the same ones,
-- starting with the hash of the generated admin key (name 'admin_key_sha256').
CREATE TABLE settings (
    name       TEXT   PRIMARY KEY,
    value      TEXT   NOT NULL,
    updated_at BIGINT NOT NULL
);
