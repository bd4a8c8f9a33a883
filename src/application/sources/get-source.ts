import * as E from 'fp-ts/Either';
import type { Source } from '../../domain/source';
import { sourceNotFound, type SourceNotFound } from '../shared/errors';
import type { SourceRepository } from '../ports/source-repository';

export class GetSource {
  constructor(private readonly sources: SourceRepository) {}

  /** The dashboard's source; another dashboard's is not found. */
  async execute(dashboardId: string, id: string): Promise<E.Either<SourceNotFound, Source>> {
    return E.fromOption(() => sourceNotFound(id))(await this.sources.find(dashboardId, id));
  }
}
