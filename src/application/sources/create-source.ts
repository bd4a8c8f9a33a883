import * as E from 'fp-ts/Either';
import { MAX_SOURCES_PER_DASHBOARD, newSource, type NewSource, type Source } from '../../domain/source';
import type { SourceLimitReached } from '../shared/errors';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { SourceRepository } from '../ports/source-repository';

export class CreateSource {
  constructor(
    private readonly sources: SourceRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  /** A new source with the platform's secret; the store's insert settles races on the dashboard's last place. */
  async execute(dashboardId: string, input: NewSource): Promise<E.Either<SourceLimitReached, Source>> {
    const source = newSource(input, { id: this.ids.next('src'), dashboardId }, this.clock.now());
    if (!(await this.sources.insert(source, MAX_SOURCES_PER_DASHBOARD))) {
      return E.left({ _tag: 'SourceLimitReached', limit: MAX_SOURCES_PER_DASHBOARD });
    }
    return E.right(source);
  }
}
