import type { SpendPage, SpendPageQuery, SpendRepository } from '../ports/spend-repository';

export class ListSpend {
  constructor(private readonly spend: SpendRepository) {}

  execute(dashboardId: string, query: SpendPageQuery): Promise<SpendPage> {
    return this.spend.list(dashboardId, query);
  }
}
