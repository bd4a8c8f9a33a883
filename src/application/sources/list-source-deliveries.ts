import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { sourceNotFound, type SourceNotFound } from '../shared/errors';
import type { SourceDeliveryLog, SourceDeliveryPage, SourceDeliveryQuery } from '../ports/source-delivery-log';
import type { SourceRepository } from '../ports/source-repository';

export class ListSourceDeliveries {
  constructor(
    private readonly sources: SourceRepository,
    private readonly log: SourceDeliveryLog,
  ) {}

  /** One page of the source's last deliveries, newest first; another dashboard's source is not found. */
  async execute(dashboardId: string, id: string, query: SourceDeliveryQuery): Promise<E.Either<SourceNotFound, SourceDeliveryPage>> {
    if (O.isNone(await this.sources.find(dashboardId, id))) return E.left(sourceNotFound(id));
    return E.right(await this.log.list(id, query));
  }
}
