-- Key budgets (budget_usd per budget_period, V30) are checked in the same transaction as the balance: the key's
-- charges since the period's start plus its open holds. These indexes make both sums reads of one key's rows;
-- the usage index carries charged_nanos so the sum is read from the index alone.
CREATE INDEX ix_holds_key ON holds (key_id);
CREATE INDEX ix_usage_key_time ON usage_records (key_id, created_at, charged_nanos);
