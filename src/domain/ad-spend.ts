import { NOT_SET } from './attribution';
import { MAX_CENTS } from './money';
import type { AdAccount, AdAccountSync } from './ad-account';
import { MAX_SYNC_MESSAGE_LENGTH } from './ad-account';
import type { SpendEntry } from './spend';

/** One row of a platform's report: what one ad spent on one day of the account's time zone. */
export interface PlatformSpendRow {
  /** `YYYY-MM-DD`, a day of the account's time zone. */
  readonly date: string;
  readonly campaignId: string;
  readonly campaignName: string;
  readonly adId: string;
  /** Empty when the platform gives the ad no name (many Google ads have none). */
  readonly adName: string;
  readonly amountCents: number;
}

/** What a platform said of an account's recent days. */
export interface PlatformSpend {
  /** The account's currency (ISO 4217), in which every amount is. */
  readonly currency: string;
  /** The account's time zone, whose days the rows are. */
  readonly timeZone: string;
  /** The days read, inclusive: every one of them is replaced, those without rows emptied. */
  readonly from: string;
  readonly to: string;
  readonly rows: readonly PlatformSpendRow[];
}

/**
 * Why a sync did not work. `needsAttention`: the platform refused for a reason only a person can fix
 * (an expired or revoked token, a missing permission, an unknown account). `unavailable`: the platform
 * was down or kept asking to wait; the sync is tried again by itself.
 */
export type SyncFailure =
  | { readonly kind: 'needsAttention'; readonly message: string }
  | { readonly kind: 'unavailable'; readonly message: string; readonly retryAfterMs?: number };

/**
 * The spend entries of a report, as the account's links name them: the campaign's and the ad's name
 * or id (an ad without a name by its id), the account's `utm_source`, and the medium left open. Rows
 * that meet on one key (two ads of one name) are added up.
 */
export const spendEntriesOf = (
  account: Pick<AdAccount, 'campaignKey' | 'utmSource'>,
  spend: PlatformSpend,
  origin: string,
): SpendEntry[] => {
  const byKey = new Map<string, SpendEntry & { amountCents: number }>();
  for (const row of spend.rows) {
    const campaign = account.campaignKey === 'id' ? row.campaignId : row.campaignName || row.campaignId;
    const content = account.campaignKey === 'id' ? row.adId : row.adName || row.adId;
    const entry = {
      date: row.date,
      utmSource: account.utmSource,
      utmMedium: NOT_SET,
      utmCampaign: clip(campaign === '' ? NOT_SET : campaign),
      utmContent: clip(content === '' ? NOT_SET : content),
      currency: spend.currency,
      amountCents: row.amountCents,
      adAccount: origin,
    };
    const key = JSON.stringify([entry.date, entry.utmCampaign, entry.utmContent]);
    const seen = byKey.get(key);
    if (seen === undefined) byKey.set(key, entry);
    else seen.amountCents = Math.min(MAX_CENTS, seen.amountCents + entry.amountCents);
  }
  return [...byKey.values()];
};

/** Names are cut at 255 code points, the longest a UTM value may be. */
const clip = (text: string): string => {
  const points = [...text];
  return points.length <= 255 ? text : points.slice(0, 255).join('');
};

/**
 * Cents from a decimal amount of currency units as a platform writes it (`"12.34"`, `"1234"`,
 * `"0.005"`), without floating point: past two decimals, rounded half up. Undefined when it is not
 * a non-negative decimal or is beyond MAX_CENTS.
 */
export const centsOfDecimal = (text: string): number | undefined => {
  const match = /^(\d{1,15})(?:\.(\d{1,12}))?$/.exec(text);
  if (match === null) return undefined;
  const fraction = (match[2] ?? '').padEnd(3, '0');
  const cents = BigInt(match[1]) * 100n + BigInt(fraction.slice(0, 2)) + (Number(fraction[2]) >= 5 ? 1n : 0n);
  return cents <= BigInt(MAX_CENTS) ? Number(cents) : undefined;
};

/** Cents from millionths of a currency unit (Google's `cost_micros`), rounded half up; undefined as above. */
export const centsOfMicros = (text: string): number | undefined => {
  if (!/^\d{1,21}$/.test(text)) return undefined;
  const cents = (BigInt(text) + 5_000n) / 10_000n;
  return cents <= BigInt(MAX_CENTS) ? Number(cents) : undefined;
};

/** A platform's message as it is kept and shown: one line, bounded. */
export const syncMessage = (text: string): string => {
  const line = text.replace(/\s+/g, ' ').trim();
  const points = [...line];
  return points.length <= MAX_SYNC_MESSAGE_LENGTH ? line : `${points.slice(0, MAX_SYNC_MESSAGE_LENGTH - 1).join('')}…`;
};

/** How long after a sync that was `unavailable` the next one is tried: 5 min after a first failure, 15 min after the next ones. */
const FIRST_RETRY_MS = 300_000;
const LATER_RETRY_MS = 900_000;

/** The account's sync after one that worked: the previous message goes. */
export const syncSucceeded = (spend: PlatformSpend, now: Date, everyMs: number): AdAccountSync => ({
  status: 'ok',
  lastSyncedAt: now,
  nextSyncAt: new Date(now.getTime() + everyMs),
  currency: spend.currency,
  timeZone: spend.timeZone,
});

/**
 * The account's sync after one that failed: the figures stay as the last sync left them, the
 * platform's message is kept, and `failingSince` is the first failure of the run. A platform that
 * asks for a wait is not asked again before it is over.
 */
export const syncFailed = (previous: AdAccountSync, failure: SyncFailure, now: Date, everyMs: number): AdAccountSync => {
  const failingSince = previous.failingSince ?? now;
  const retryMs =
    failure.kind === 'needsAttention'
      ? everyMs
      : Math.max(failure.retryAfterMs ?? 0, Math.min(everyMs, previous.failingSince === undefined ? FIRST_RETRY_MS : LATER_RETRY_MS));
  return {
    status: 'needsAttention',
    message: syncMessage(failure.message),
    ...(previous.lastSyncedAt === undefined ? {} : { lastSyncedAt: previous.lastSyncedAt }),
    failingSince,
    nextSyncAt: new Date(now.getTime() + retryMs),
    ...(previous.currency === undefined ? {} : { currency: previous.currency }),
    ...(previous.timeZone === undefined ? {} : { timeZone: previous.timeZone }),
  };
};
