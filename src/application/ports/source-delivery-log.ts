import type { Option } from 'fp-ts/Option';
import type { SourceDelivery } from '../../domain/source';

export interface SourceDeliveryQuery {
  /** 1-based. */
  readonly page: number;
  readonly pageSize: number;
}

export interface SourceDeliveryPage {
  readonly deliveries: readonly SourceDelivery[];
  /** How many the source keeps now, whatever the page. */
  readonly total: number;
}

/**
 * The deliveries each source received, newest first, never their bodies. Implementations must agree on
 * everything written here (test/contract/source-delivery-log.contract.ts).
 */
export interface SourceDeliveryLog {
  /**
   * Records a delivery and trims its source's log to the newest `keep`, in one atomic step: a reader
   * never sees more than `keep`, and racing appends lose none of the newest.
   */
  append(delivery: SourceDelivery, keep: number): Promise<void>;

  /** One page of the source's log, newest first: the reverse of the order they were appended in. */
  list(sourceId: string, query: SourceDeliveryQuery): Promise<SourceDeliveryPage>;

  /** The first delivery of the source with this event id whose outcome was `created` or `updated`, among those kept. */
  findApplied(sourceId: string, eventId: string): Promise<Option<SourceDelivery>>;

  /** Forgets the source's log (the source was deleted). */
  deleteOfSource(sourceId: string): Promise<void>;
}
