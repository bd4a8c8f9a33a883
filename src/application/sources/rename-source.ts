import * as E from 'fp-ts/Either';
import { renameSource, type Source } from '../../domain/source';
import { sourceNotFound, type SourceNotFound } from '../shared/errors';
import type { Clock } from '../ports/clock';
import type { SourceRepository } from '../ports/source-repository';
import { changeStored } from '../shared/change-stored';

export class RenameSource {
  constructor(
    private readonly sources: SourceRepository,
    private readonly clock: Clock,
  ) {}

  async execute(dashboardId: string, id: string, name: string): Promise<E.Either<SourceNotFound, Source>> {
    const renamed = await changeStored('source', this.sources, dashboardId, id, (current) => renameSource(current, name, this.clock.now()));
    return E.fromOption(() => sourceNotFound(id))(renamed);
  }
}
