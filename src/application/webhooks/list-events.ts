import type { JsonObject } from '../../domain/order';
import type { OrderEventType } from '../../domain/order-events';
import type { Clock } from '../ports/clock';
import type { EventFeed } from '../ports/event-feed';
import type { WebhookPayloads } from '../ports/webhook-payloads';

export interface EventList {
  /** Each event exactly as its webhook's body (decision 0012). */
  readonly events: readonly JsonObject[];
  readonly hasMore: boolean;
}

export class ListEvents {
  constructor(
    private readonly feed: EventFeed,
    private readonly payloads: WebhookPayloads,
    private readonly clock: Clock,
  ) {}

  /** The events after `after`, oldest first; `undefined` when `after` is not an event of the feed. */
  async execute(dashboardId: string, query: { after?: string; type?: OrderEventType; limit: number }): Promise<EventList | undefined> {
    const page = await this.feed.list(dashboardId, { ...query, now: this.clock.now() });
    if (page === undefined) return undefined;
    return { events: page.events.map((event) => JSON.parse(this.payloads.orderEvent(event).body) as JsonObject), hasMore: page.hasMore };
  }
}
