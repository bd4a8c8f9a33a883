import * as O from 'fp-ts/Option';
import type { SourceDeliveryLog, SourceDeliveryPage, SourceDeliveryQuery } from '../../../application/ports/source-delivery-log';
import type { SourceDelivery } from '../../../domain/source';
import { pageOf } from '../page-of';

/** Each source's log as an array, newest last; an append pushes and trims with no `await` in between. */
export class InMemorySourceDeliveryLog implements SourceDeliveryLog {
  private readonly bySource = new Map<string, SourceDelivery[]>();

  async append(delivery: SourceDelivery, keep: number): Promise<void> {
    const log = this.bySource.get(delivery.sourceId) ?? [];
    log.push(structuredClone(delivery));
    this.bySource.set(delivery.sourceId, log.slice(Math.max(0, log.length - keep)));
  }

  async list(sourceId: string, query: SourceDeliveryQuery): Promise<SourceDeliveryPage> {
    const newestFirst = [...(this.bySource.get(sourceId) ?? [])].reverse();
    return { deliveries: pageOf(newestFirst, query), total: newestFirst.length };
  }

  async findApplied(sourceId: string, eventId: string): Promise<O.Option<SourceDelivery>> {
    const found = (this.bySource.get(sourceId) ?? []).find(
      (delivery) => delivery.eventId === eventId && (delivery.outcome === 'created' || delivery.outcome === 'updated'),
    );
    return found === undefined ? O.none : O.some(structuredClone(found));
  }

  async deleteOfSource(sourceId: string): Promise<void> {
    this.bySource.delete(sourceId);
  }
}
