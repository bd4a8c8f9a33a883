import * as O from 'fp-ts/Option';
import type { Dashboard } from '../../../domain/dashboard';
import type { DashboardRepository } from '../../../application/ports/dashboard-repository';
import { oldestFirst } from '../oldest-first';

export class InMemoryDashboardRepository implements DashboardRepository {
  private readonly byId = new Map<string, Dashboard>();

  async insert(dashboard: Dashboard): Promise<void> {
    if (this.byId.has(dashboard.id)) throw new Error('dashboard id already used');
    this.byId.set(dashboard.id, structuredClone(dashboard));
  }

  async update(dashboard: Dashboard): Promise<boolean> {
    if (!this.byId.has(dashboard.id)) return false;
    this.byId.set(dashboard.id, structuredClone(dashboard));
    return true;
  }

  async findById(id: string): Promise<O.Option<Dashboard>> {
    const found = this.byId.get(id);
    return found === undefined ? O.none : O.some(structuredClone(found));
  }

  async list(): Promise<readonly Dashboard[]> {
    return [...this.byId.values()].sort(oldestFirst).map((dashboard) => structuredClone(dashboard));
  }
}
