/**
 * The events feed (decision 0019): the relay copies each event here in the transaction that takes it
 * out of `order_events`. `seq` grows with every commit (SQLite has one writer at a time, on one file
 * whatever the processes), so a reader that asks for the rows after the last `seq` it saw misses none.
 */
export const EVENT_FEED_MIGRATION = `
  CREATE TABLE event_feed (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    dashboard_id TEXT NOT NULL,
    type TEXT NOT NULL,
    occurred_at INTEGER NOT NULL,
    previous_status TEXT,
    order_row TEXT NOT NULL,
    stored_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX event_feed_of_dashboard ON event_feed (dashboard_id, seq);
  CREATE INDEX event_feed_of_dashboard_type ON event_feed (dashboard_id, type, seq);
  CREATE INDEX event_feed_expiry ON event_feed (stored_at);
`;
