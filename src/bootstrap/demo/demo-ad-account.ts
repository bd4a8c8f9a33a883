import * as E from 'fp-ts/Either';
import type { UseCases } from '../../application/use-cases';
import { SYNC_DAYS } from '../../domain/ad-account';
import type { SpendEntry } from '../../domain/spend';
import { DEMO_META_ACCOUNT, DEMO_META_TOKEN } from './demo-ad-platform';

/** The first day of the days the demo's Meta account is read for, ending `today`. */
export const firstSyncedDay = (today: string): string => {
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d - (SYNC_DAYS - 1))).toISOString().slice(0, 10);
};

/** The demo's Facebook spend in BRL of the days its ad account is read for: the account reports it, the upload leaves it out. */
export const readByDemoAccount =
  (today: string) =>
  (entry: SpendEntry): boolean =>
    entry.utmSource === 'facebook' && entry.currency === 'BRL' && entry.date >= firstSyncedDay(today);

/** Connects the demo's Meta account as an owner would; the service's worker syncs it once it starts. */
export const connectDemoAdAccount = async (useCases: UseCases, dashboardId: string): Promise<void> => {
  const connected = await useCases.connectAdAccount.execute(
    dashboardId,
    { platform: 'meta', name: 'Meta (demo)', accountId: DEMO_META_ACCOUNT, campaignKey: 'name' },
    { accessToken: DEMO_META_TOKEN },
  );
  if (E.isLeft(connected)) throw new Error(`the demo's ad account was refused: ${connected.left._tag}`);
};
