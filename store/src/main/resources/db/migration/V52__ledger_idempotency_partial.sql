-- Only credits carry an idempotency key; charges (one per billed request) do not. The unique index over
-- (user_id, idempotency_key) listed every charge under a NULL key all the same, one more index page to write per
-- billed request. Indexed now only where a key is given: the uniqueness of keys is unchanged, and the lookup by
-- user and key (idempotency_key = ?, which implies NOT NULL) still uses it on SQLite and PostgreSQL.
DROP INDEX ux_ledger_idempotency;
CREATE UNIQUE INDEX ux_ledger_idempotency ON ledger (user_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
