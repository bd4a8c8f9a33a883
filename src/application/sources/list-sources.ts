import type { Source } from '../../domain/source';
import type { SourceRepository } from '../ports/source-repository';

export class ListSources {
  constructor(private readonly sources: SourceRepository) {}

  /** The dashboard's sources, oldest first. */
  execute(dashboardId: string): Promise<readonly Source[]> {
    return this.sources.listByDashboard(dashboardId);
  }
}
