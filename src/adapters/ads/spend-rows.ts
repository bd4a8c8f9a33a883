import type { PlatformSpendRow } from '../../domain/ad-spend';
import { isDayWithin } from './account-days';

/** One row of a platform's spend report, each field as read (undefined where the platform left it out). */
export interface ReadSpendRow {
  readonly date: string | undefined;
  readonly amountCents: number | undefined;
  readonly campaignId: string | undefined;
  readonly campaignName: string | undefined;
  readonly adId: string | undefined;
  readonly adName: string | undefined;
}

/**
 * The spend row, or undefined when a field the reports key on is missing or the day lies outside
 * `from..to` (the answer is then unreadable); a missing name is kept as empty.
 */
export const spendRowWithin = (read: ReadSpendRow, from: string, to: string): PlatformSpendRow | undefined => {
  const { date, amountCents, campaignId, adId } = read;
  if (date === undefined || !isDayWithin(date, from, to) || amountCents === undefined || campaignId === undefined || adId === undefined) {
    return undefined;
  }
  return { date, campaignId, campaignName: read.campaignName ?? '', adId, adName: read.adName ?? '', amountCents };
};
