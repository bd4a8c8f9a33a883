import * as O from 'fp-ts/Option';
import type { SourceRepository } from '../../application/ports/source-repository';
import type { Source } from '../../domain/source';
import { oldestFirst } from './oldest-first';

/** Sources in the process; each method decides and writes with no `await` in between. */
export class InMemorySourceRepository implements SourceRepository {
  private readonly byId = new Map<string, Source>();

  async insert(source: Source, limit: number): Promise<boolean> {
    if (this.byId.has(source.id)) throw new Error('source id already used');
    if (this.of(source.dashboardId).length >= limit) return false;
    this.byId.set(source.id, structuredClone(source));
    return true;
  }

  async find(dashboardId: string, id: string): Promise<O.Option<Source>> {
    const found = this.byId.get(id);
    return found === undefined || found.dashboardId !== dashboardId ? O.none : O.some(structuredClone(found));
  }

  async findById(id: string): Promise<O.Option<Source>> {
    const found = this.byId.get(id);
    return found === undefined ? O.none : O.some(structuredClone(found));
  }

  async listByDashboard(dashboardId: string): Promise<readonly Source[]> {
    return this.of(dashboardId)
      .sort(oldestFirst)
      .map((source) => structuredClone(source));
  }

  async replace(source: Source): Promise<boolean> {
    const stored = this.byId.get(source.id);
    if (stored === undefined || stored.dashboardId !== source.dashboardId || stored.version !== source.version - 1) return false;
    this.byId.set(source.id, structuredClone(source));
    return true;
  }

  async delete(dashboardId: string, id: string): Promise<boolean> {
    const stored = this.byId.get(id);
    if (stored === undefined || stored.dashboardId !== dashboardId) return false;
    this.byId.delete(id);
    return true;
  }

  private of(dashboardId: string): Source[] {
    return [...this.byId.values()].filter((source) => source.dashboardId === dashboardId);
  }
}
