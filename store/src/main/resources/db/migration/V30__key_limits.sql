-- Key limits beyond rpm and daily_tokens (which V1 created): tokens per minute, requests in flight, and a spend
-- budget per period (nano-dollars; daily | weekly | monthly | total). NULL means "no such limit".
ALTER TABLE api_keys ADD COLUMN tpm BIGINT;
ALTER TABLE api_keys ADD COLUMN max_parallel BIGINT;
ALTER TABLE api_keys ADD COLUMN budget_nanos BIGINT;
ALTER TABLE api_keys ADD COLUMN budget_period TEXT;
