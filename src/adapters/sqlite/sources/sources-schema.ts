import { SCOPES_BEFORE_SOURCES } from '../../../domain/scope';

/**
 * Sources and their delivery logs (decision 0021). A source's secret is kept as it is, as webhook
 * secrets are: it keys the HMAC of each delivery. The log's `seq` is the order of the appends. Tokens that held every scope (the list as it was before sources) get the two new
 * ones; a token made with some scopes keeps its list. A released migration is never edited.
 */
export const SOURCES_MIGRATION = `
  CREATE TABLE sources (
    id TEXT PRIMARY KEY NOT NULL,
    dashboard_id TEXT NOT NULL,
    platform TEXT NOT NULL,
    name TEXT NOT NULL,
    secret TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    version INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX sources_of_dashboard ON sources (dashboard_id, created_at, id);

  CREATE TABLE source_deliveries (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    source_id TEXT NOT NULL,
    dashboard_id TEXT NOT NULL,
    received_at INTEGER NOT NULL,
    event_id TEXT,
    topic TEXT,
    outcome TEXT NOT NULL,
    reason TEXT,
    external_id TEXT
  ) STRICT;
  CREATE INDEX source_deliveries_newest ON source_deliveries (source_id, seq);
  CREATE INDEX source_deliveries_event ON source_deliveries (source_id, event_id) WHERE event_id IS NOT NULL;

  UPDATE tokens SET scopes = scopes || ' sources:read sources:write' WHERE scopes = '${SCOPES_BEFORE_SOURCES.join(' ')}';
`;
