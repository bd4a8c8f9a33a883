/**
 * What an API token may do (decision 0017): one scope per kind of data and access. `:write` includes
 * `:read` of the same data, except for orders: a checkout's token, `orders:write` alone, creates and
 * updates orders and reads nothing back but the answers to its own writes (decision 0017's checkout case), so
 * that a leaked checkout token does not leak every customer.
 */
export const SCOPES = [
  'orders:read',
  'orders:write',
  'reports:read',
  'spend:read',
  'spend:write',
  'links:read',
  'links:write',
  'webhooks:read',
  'webhooks:write',
  'sources:read',
  'sources:write',
  'ads:read',
  'ads:write',
] as const;
export type Scope = (typeof SCOPES)[number];

export const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value);

/** Whether a token with `granted` may do what needs `needed`. */
export const grants = (granted: readonly Scope[], needed: Scope): boolean =>
  granted.includes(needed) || (IMPLIED_BY_WRITE.has(needed) && granted.includes(needed.replace(/:read$/, ':write') as Scope));

const IMPLIED_BY_WRITE: ReadonlySet<Scope> = new Set([
  'reports:read',
  'spend:read',
  'links:read',
  'webhooks:read',
  'sources:read',
  'ads:read',
]);

/**
 * Every scope there was before sources (decision 0021). A token stores its scopes as a list, so a token that
 * held all of these was made with every scope (the default): stores give it the sources scopes too.
 * A token made with some scopes keeps exactly those.
 */
export const SCOPES_BEFORE_SOURCES: readonly Scope[] = SCOPES.slice(0, SCOPES.indexOf('sources:read'));

/**
 * Every scope there was before ad accounts: a token that held all of these was made with every scope,
 * and stores give it the ad accounts' scopes too, as they gave the sources' (SCOPES_BEFORE_SOURCES).
 */
export const SCOPES_BEFORE_ADS: readonly Scope[] = SCOPES.slice(0, SCOPES.indexOf('ads:read'));

/** The scopes in their canonical order, each once: how a token's scopes are stored and shown. */
export const canonicalScopes = (scopes: Iterable<Scope>): Scope[] => {
  const given = new Set(scopes);
  return SCOPES.filter((scope) => given.has(scope));
};
