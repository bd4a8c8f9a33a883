/**
 * Conversions sent to the ad platforms: one row per order event and ad account (the unique pair
 * makes the relay idempotent), with the conversion and its attempts as JSON. A lease (`lease_until`,
 * 0 when nobody holds it, and `lease_id`) is a claim on the due attempt. An account's last refusal
 * has its own column, written by the sender alone. A released migration is never edited.
 */
export const CONVERSIONS_MIGRATION = `
  CREATE TABLE conversion_deliveries (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    dashboard_id TEXT NOT NULL,
    ad_account_id TEXT NOT NULL,
    platform TEXT NOT NULL,
    event_id TEXT NOT NULL,
    order_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    conversion TEXT NOT NULL,
    status TEXT NOT NULL,
    attempts TEXT NOT NULL,
    next_attempt_at INTEGER,
    lease_until INTEGER NOT NULL,
    lease_id TEXT,
    created_at INTEGER NOT NULL,
    UNIQUE (event_id, ad_account_id)
  ) STRICT;
  -- The due attempts, and only they: a claim walks this index from the longest due.
  CREATE INDEX conversion_deliveries_due ON conversion_deliveries (next_attempt_at) WHERE status = 'pending';
  CREATE INDEX conversion_deliveries_newest_first ON conversion_deliveries (ad_account_id, created_at DESC, id DESC);
  CREATE INDEX conversion_deliveries_by_status_newest_first ON conversion_deliveries (ad_account_id, status, created_at DESC, id DESC);
  CREATE INDEX conversion_deliveries_of_order ON conversion_deliveries (ad_account_id, order_id, kind);
  CREATE INDEX conversion_deliveries_expiry ON conversion_deliveries (created_at);

  ALTER TABLE ad_accounts ADD COLUMN conversion_problem TEXT;
`;
