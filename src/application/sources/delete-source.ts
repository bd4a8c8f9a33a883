import * as E from 'fp-ts/Either';
import { sourceNotFound, type SourceNotFound } from '../shared/errors';
import type { SourceDeliveryLog } from '../ports/source-delivery-log';
import type { SourceRepository } from '../ports/source-repository';

export class DeleteSource {
  constructor(
    private readonly sources: SourceRepository,
    private readonly log: SourceDeliveryLog,
  ) {}

  /**
   * Deletes the source, then its delivery log. From the moment it is deleted its URL answers 404, so
   * a crash before the log is deleted leaves only a log nobody can read; the orders it made stay.
   */
  async execute(dashboardId: string, id: string): Promise<E.Either<SourceNotFound, void>> {
    if (!(await this.sources.delete(dashboardId, id))) return E.left(sourceNotFound(id));
    await this.log.deleteOfSource(id);
    return E.right(undefined);
  }
}
