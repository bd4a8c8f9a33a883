import { SCOPES_BEFORE_ADS } from '../../../domain/scope';
import { spendTriggers } from '../reports/report-schema';

const SPEND_KEY = 'dashboard_id, date, utm_source, utm_medium, utm_campaign, utm_content, currency';

/**
 * Ad accounts, and the spend rows that know which account wrote them. An account's settings and its
 * sync live in one row; the sync's columns are written by syncs alone. `spend` gains `ad_account`
 * (`meta:…`, empty for uploaded spend) in its key: a table cannot change its primary key, so it is
 * made again, its triggers dropped first so that the copy leaves its sums as they are, and made again
 * after. Tokens that held every scope get the two new ones. A released migration is never edited.
 */
export const ADS_MIGRATION = `
  CREATE TABLE ad_accounts (
    id TEXT PRIMARY KEY NOT NULL,
    dashboard_id TEXT NOT NULL,
    platform TEXT NOT NULL,
    account_id TEXT NOT NULL,
    name TEXT NOT NULL,
    campaign_key TEXT NOT NULL,
    utm_source TEXT NOT NULL,
    conversions TEXT,
    sealed_credentials TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    version INTEGER NOT NULL,
    status TEXT NOT NULL,
    message TEXT,
    last_synced_at INTEGER,
    failing_since INTEGER,
    next_sync_at INTEGER NOT NULL,
    currency TEXT,
    time_zone TEXT,
    lease_until INTEGER NOT NULL,
    lease_id TEXT,
    UNIQUE (dashboard_id, platform, account_id)
  ) STRICT;
  CREATE INDEX ad_accounts_of_dashboard ON ad_accounts (dashboard_id, created_at, id);
  CREATE INDEX ad_accounts_due ON ad_accounts (next_sync_at);

  DROP TRIGGER spend_on_insert;
  DROP TRIGGER spend_on_update;
  DROP TRIGGER spend_on_delete;
  CREATE TABLE spend_with_origin (
    dashboard_id TEXT NOT NULL, date TEXT NOT NULL, utm_source TEXT NOT NULL, utm_medium TEXT NOT NULL,
    utm_campaign TEXT NOT NULL, utm_content TEXT NOT NULL, currency TEXT NOT NULL, amount_cents INTEGER NOT NULL,
    ad_account TEXT NOT NULL,
    PRIMARY KEY (${SPEND_KEY}, ad_account)
  ) STRICT, WITHOUT ROWID;
  INSERT INTO spend_with_origin (${SPEND_KEY}, amount_cents, ad_account) SELECT ${SPEND_KEY}, amount_cents, '' FROM spend;
  DROP TABLE spend;
  ALTER TABLE spend_with_origin RENAME TO spend;
  CREATE INDEX spend_of_ad_account ON spend (dashboard_id, ad_account, date) WHERE ad_account <> '';
  ${spendTriggers()}

  UPDATE tokens SET scopes = scopes || ' ads:read ads:write' WHERE scopes = '${SCOPES_BEFORE_ADS.join(' ')}';
`;
