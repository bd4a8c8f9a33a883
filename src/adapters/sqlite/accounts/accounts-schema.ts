import { SCOPES_BEFORE_SOURCES } from '../../../domain/scope';

/**
 * Token scopes and console accounts (decision 0017). Tokens made before get every scope (the list as
 * it was then, written out: a scope added later is not granted to them silently). Passwords, sessions
 * and invitations are stored only as hashes. A released migration is never edited.
 */
export const ACCOUNTS_MIGRATION = `
  ALTER TABLE tokens ADD COLUMN scopes TEXT NOT NULL DEFAULT '${SCOPES_BEFORE_SOURCES.join(' ')}';
  ALTER TABLE tokens ADD COLUMN expires_at INTEGER;
  ALTER TABLE tokens ADD COLUMN last_used_at INTEGER;

  -- \`email\` is stored lower-cased, so the unique index compares it case-insensitively.
  CREATE TABLE users (
    id TEXT PRIMARY KEY NOT NULL,
    email TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    password_changed_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX users_oldest_first ON users (created_at, id);

  CREATE TABLE memberships (
    user_id TEXT NOT NULL,
    dashboard_id TEXT NOT NULL,
    role TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, dashboard_id)
  ) STRICT;
  CREATE INDEX memberships_of_dashboard ON memberships (dashboard_id, created_at, user_id);

  CREATE TABLE invitations (
    id TEXT PRIMARY KEY NOT NULL,
    dashboard_id TEXT NOT NULL,
    email TEXT NOT NULL,
    role TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    invited_by TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    accepted_at INTEGER
  ) STRICT;
  CREATE INDEX invitations_of_dashboard ON invitations (dashboard_id, created_at, id);

  CREATE TABLE sessions (
    id_hash TEXT PRIMARY KEY NOT NULL,
    user_id TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX sessions_of_user ON sessions (user_id);
`;
