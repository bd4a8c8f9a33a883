import * as O from 'fp-ts/Option';
import { oldestFirst } from './oldest-first';

type DashboardRecord = { readonly id: string; readonly dashboardId: string; readonly version: number; readonly createdAt: Date };

/**
 * Records of a dashboard (webhook endpoints, sources) in the process, at most `limit` per dashboard,
 * replaced by compare-and-set on their version; each method decides and writes with no `await` in
 * between, and hands out copies.
 */
export class InMemoryDashboardRecords<R extends DashboardRecord> {
  private readonly byId = new Map<string, R>();

  async insert(record: R, limit: number): Promise<boolean> {
    if (this.byId.has(record.id)) throw new Error(`id ${record.id} already used`);
    if (this.of(record.dashboardId).length >= limit) return false;
    this.byId.set(record.id, structuredClone(record));
    return true;
  }

  async find(dashboardId: string, id: string): Promise<O.Option<R>> {
    const found = this.byId.get(id);
    return found === undefined || found.dashboardId !== dashboardId ? O.none : O.some(structuredClone(found));
  }

  async findById(id: string): Promise<O.Option<R>> {
    const found = this.byId.get(id);
    return found === undefined ? O.none : O.some(structuredClone(found));
  }

  async listByDashboard(dashboardId: string): Promise<readonly R[]> {
    return this.of(dashboardId)
      .sort(oldestFirst)
      .map((record) => structuredClone(record));
  }

  /** Whether the dashboard has any record, now. */
  anyOf(dashboardId: string): boolean {
    return this.of(dashboardId).length > 0;
  }

  async replace(record: R): Promise<boolean> {
    const stored = this.byId.get(record.id);
    if (stored === undefined || stored.dashboardId !== record.dashboardId || stored.version !== record.version - 1) return false;
    this.byId.set(record.id, structuredClone(record));
    return true;
  }

  async delete(dashboardId: string, id: string): Promise<boolean> {
    const stored = this.byId.get(id);
    if (stored === undefined || stored.dashboardId !== dashboardId) return false;
    this.byId.delete(id);
    return true;
  }

  private of(dashboardId: string): R[] {
    return [...this.byId.values()].filter((record) => record.dashboardId === dashboardId);
  }
}
