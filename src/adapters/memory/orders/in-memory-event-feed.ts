import { FEED_RETENTION_MS, type EventFeed, type EventFeedPage, type EventFeedQuery } from '../../../application/ports/event-feed';
import type { OrderEvent } from '../../../application/ports/order-repository';

interface Entry {
  readonly dashboardId: string;
  readonly event: OrderEvent;
  readonly storedAt: number;
}

/** The events feed in the process: events in the order the relay added them, each once. */
export class InMemoryEventFeed implements EventFeed {
  private entries: Entry[] = [];
  private readonly ids = new Set<string>();

  /** Called by the outbox's relay, in the same synchronous step: an event is added once, whatever the retries. */
  add(dashboardId: string, events: readonly OrderEvent[], now: number): void {
    this.entries = this.entries.filter((entry) => entry.storedAt > now - FEED_RETENTION_MS);
    for (const event of events) {
      if (this.ids.has(event.id)) continue;
      this.ids.add(event.id);
      this.entries.push({ dashboardId, event: structuredClone(event), storedAt: now });
    }
  }

  async list(dashboardId: string, query: EventFeedQuery): Promise<EventFeedPage | undefined> {
    const kept = this.entries.filter(
      (entry) => entry.dashboardId === dashboardId && entry.storedAt > query.now.getTime() - FEED_RETENTION_MS,
    );
    let start = 0;
    if (query.after !== undefined) {
      const at = kept.findIndex((entry) => entry.event.id === query.after);
      if (at < 0) return undefined;
      start = at + 1;
    }
    const matching = kept.slice(start).filter((entry) => query.type === undefined || entry.event.type === query.type);
    return { events: matching.slice(0, query.limit).map((entry) => structuredClone(entry.event)), hasMore: matching.length > query.limit };
  }
}
