import type { SpendEntry } from '../../domain/spend';
import type { SpendRepository } from '../ports/spend-repository';

/** Sets the amount of each entry's key, all or none (decision 0016); an entry given twice, the last one. */
export class PutSpend {
  constructor(private readonly spend: SpendRepository) {}

  async execute(dashboardId: string, entries: readonly SpendEntry[]): Promise<number> {
    const byKey = new Map<string, SpendEntry>();
    for (const entry of entries) {
      byKey.set(JSON.stringify([entry.date, entry.utmSource, entry.utmMedium, entry.utmCampaign, entry.utmContent, entry.currency]), entry);
    }
    return this.spend.upsert(dashboardId, [...byKey.values()]);
  }
}
