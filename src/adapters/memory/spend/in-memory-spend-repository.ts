import type { SpendPage, SpendPageQuery, SpendRepository, SpendSum, SpendSumQuery } from '../../../application/ports/spend-repository';
import { SPEND_DIMENSIONS } from '../../../domain/report';
import type { SpendEntry } from '../../../domain/spend';
import { sumSpend } from '../../persistence/spend-sums';

const keyOf = (dashboardId: string, e: SpendEntry): string =>
  JSON.stringify([dashboardId, e.date, e.utmSource, e.utmMedium, e.utmCampaign, e.utmContent, e.currency, e.adAccount ?? '']);

/** Newest day first, then by key: the listing order of the port. */
const newestFirst = (a: SpendEntry, b: SpendEntry): number => {
  if (a.date !== b.date) return a.date < b.date ? 1 : -1;
  const [x, y] = [
    JSON.stringify([a.utmSource, a.utmMedium, a.utmCampaign, a.utmContent, a.currency, a.adAccount ?? '']),
    JSON.stringify([b.utmSource, b.utmMedium, b.utmCampaign, b.utmContent, b.currency, b.adAccount ?? '']),
  ];
  return x < y ? -1 : x > y ? 1 : 0;
};

export class InMemorySpendRepository implements SpendRepository {
  private readonly entries = new Map<string, { readonly dashboardId: string; readonly entry: SpendEntry }>();

  async upsert(dashboardId: string, entries: readonly SpendEntry[]): Promise<number> {
    for (const entry of entries) this.entries.set(keyOf(dashboardId, entry), { dashboardId, entry: { ...entry } });
    return entries.length;
  }

  async replaceAdAccountDays(
    dashboardId: string,
    adAccount: string,
    from: string,
    to: string,
    entries: readonly SpendEntry[],
  ): Promise<number> {
    for (const [key, stored] of this.entries) {
      const { entry } = stored;
      if (stored.dashboardId === dashboardId && entry.adAccount === adAccount && entry.date >= from && entry.date <= to)
        this.entries.delete(key);
    }
    for (const entry of entries) this.entries.set(keyOf(dashboardId, entry), { dashboardId, entry: { ...entry, adAccount } });
    return entries.length;
  }

  async list(dashboardId: string, query: SpendPageQuery): Promise<SpendPage> {
    const matching = this.of(dashboardId, query.from, query.to).sort(newestFirst);
    const offset = (query.page - 1) * query.pageSize;
    return { entries: matching.slice(offset, offset + query.pageSize).map((entry) => ({ ...entry })), total: matching.length };
  }

  async sums(dashboardId: string, query: SpendSumQuery): Promise<readonly SpendSum[]> {
    const matching = this.of(dashboardId, query.from, query.to).filter((entry) =>
      SPEND_DIMENSIONS.every((dimension) => query.filters[dimension] === undefined || query.filters[dimension] === entry[dimension]),
    );
    return sumSpend(matching, query);
  }

  private of(dashboardId: string, from: string | undefined, to: string | undefined): SpendEntry[] {
    return [...this.entries.values()]
      .filter(
        (stored) =>
          stored.dashboardId === dashboardId &&
          (from === undefined || stored.entry.date >= from) &&
          (to === undefined || stored.entry.date <= to),
      )
      .map((stored) => stored.entry);
  }
}
