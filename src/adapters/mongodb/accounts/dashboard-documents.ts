import * as t from 'io-ts';
import type { Db } from 'mongodb';
import { SCOPES, SCOPES_BEFORE_SOURCES, SCOPES_BEFORE_ADS, type Scope } from '../../../domain/scope';
import { DEFAULT_TIMEZONE, type ApiToken, type Dashboard } from '../../../domain/dashboard';
import { DEFAULT_TAX_RATE, hundredthsOf, taxRateOfHundredths } from '../../../domain/tax-rate';
import { bsonDate, withoutUndefined } from '../bson-codecs';

/**
 * A dashboard as read from the `dashboards` collection; `_id` is the dashboard id. Made before time
 * zones: UTC; before tax rates: 0. The tax rate is kept in hundredths of a percent, an integer.
 */
export const dashboardDocumentCodec = t.intersection([
  t.type({ _id: t.string, name: t.string, createdAt: bsonDate }),
  t.partial({ timezone: t.string, taxRateHundredths: t.Int }),
]);

export interface DashboardDocument {
  readonly _id: string;
  readonly name: string;
  readonly timezone: string;
  readonly taxRateHundredths: number;
  readonly createdAt: Date;
}

export const dashboardToDocument = (dashboard: Dashboard): DashboardDocument => ({
  _id: dashboard.id,
  name: dashboard.name,
  timezone: dashboard.timezone,
  taxRateHundredths: hundredthsOf(dashboard.taxRate),
  createdAt: dashboard.createdAt,
});

export const dashboardFromDocument = (doc: t.TypeOf<typeof dashboardDocumentCodec>): Dashboard => ({
  id: doc._id,
  name: doc.name,
  timezone: doc.timezone ?? DEFAULT_TIMEZONE,
  taxRate: doc.taxRateHundredths === undefined ? DEFAULT_TAX_RATE : taxRateOfHundredths(doc.taxRateHundredths),
  createdAt: doc.createdAt,
});

/** A token as read from the `tokens` collection: its hash, never the plain token; `_id` is the token id. */
export const tokenDocumentCodec = t.intersection([
  t.type({ _id: t.string, dashboardId: t.string, hash: t.string, createdAt: bsonDate }),
  t.partial({
    name: t.string,
    // Absent on the tokens of a version before scopes (until the migration at start gives them all).
    scopes: t.array(t.keyof(Object.fromEntries(SCOPES.map((scope) => [scope, null])) as Record<Scope, null>)),
    expiresAt: bsonDate,
    lastUsedAt: bsonDate,
    revokedAt: bsonDate,
  }),
]);

export interface TokenDocument {
  readonly _id: string;
  readonly dashboardId: string;
  readonly hash: string;
  readonly scopes: readonly Scope[];
  readonly createdAt: Date;
  readonly name?: string;
  readonly expiresAt?: Date;
  readonly lastUsedAt?: Date;
  readonly revokedAt?: Date;
}

export const tokenToDocument = (token: ApiToken): TokenDocument =>
  withoutUndefined({
    _id: token.id,
    dashboardId: token.dashboardId,
    name: token.name,
    hash: token.hash,
    scopes: token.scopes,
    createdAt: token.createdAt,
    expiresAt: token.expiresAt,
    lastUsedAt: token.lastUsedAt,
    revokedAt: token.revokedAt,
  });

export const tokenFromDocument = (doc: t.TypeOf<typeof tokenDocumentCodec>): ApiToken =>
  withoutUndefined({
    id: doc._id,
    dashboardId: doc.dashboardId,
    name: doc.name,
    hash: doc.hash,
    scopes: doc.scopes ?? SCOPES,
    createdAt: doc.createdAt,
    expiresAt: doc.expiresAt,
    lastUsedAt: doc.lastUsedAt,
    revokedAt: doc.revokedAt,
  });

/** Tokens made before scopes get every scope, written once at start (idempotent; instances may race). */
export const giveOldTokensEveryScope = async (db: Db): Promise<void> => {
  await db.collection('tokens').updateMany({ scopes: { $exists: false } }, { $set: { scopes: [...SCOPES] } });
};

/**
 * Tokens that held every scope before sources (decision 0021) get the sources scopes, at start (idempotent: a
 * token that has them no longer matches). A token made with some scopes keeps its list.
 */
export const giveAllScopeTokensSourceScopes = async (db: Db): Promise<void> => {
  await db.collection('tokens').updateMany({ scopes: [...SCOPES_BEFORE_SOURCES] }, {
    $push: { scopes: { $each: ['sources:read', 'sources:write'] } },
  } as Record<string, unknown>);
};

/** The same for the ad accounts' scopes: a token that held every scope before them gets them. */
export const giveAllScopeTokensAdScopes = async (db: Db): Promise<void> => {
  await db.collection('tokens').updateMany({ scopes: [...SCOPES_BEFORE_ADS] }, {
    $push: { scopes: { $each: ['ads:read', 'ads:write'] } },
  } as Record<string, unknown>);
};
