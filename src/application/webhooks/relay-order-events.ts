import type { AdAccount } from '../../domain/ad-account';
import { newDelivery, type Delivery } from '../../domain/delivery';
import { conversionDeliveriesOf } from '../conversions/conversions-of-events';
import type { ConversionNudge } from '../conversions/conversion-nudge';
import type { AdAccountRepository } from '../ports/ad-account-repository';
import { subscribes, type WebhookEndpoint } from '../../domain/webhook';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { WebhookEndpointRepository } from '../ports/webhook-endpoint-repository';
import type { WebhookNudge } from '../ports/webhook-nudge';
import type { OutboxEntry, WebhookOutbox } from '../ports/webhook-outbox';
import type { WebhookPayloads } from '../ports/webhook-payloads';

/** How many more orders the step for dashboards without endpoints takes than `pending` (see `execute`). */
const UNSUBSCRIBED_PER_LIMIT = 10;

/**
 * The relay: turns the events waiting in the orders' outboxes into deliveries, one per event and
 * subscribed endpoint, and into conversion deliveries, one per paid (refunded, charged back) event
 * and ad account sending conversions, then takes them out of the outboxes. Subscriptions and
 * accounts are read now, at relay time: an endpoint disabled or deleted by then gets nothing, nor
 * does an account whose conversions were turned off. Creating a delivery is idempotent on
 * (event, endpoint), so a relay that dies half-way, or two relays of one order at once (two
 * instances), make each delivery once: at least once, never twice.
 */
export class RelayOrderEvents {
  constructor(
    private readonly outbox: WebhookOutbox,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly payloads: WebhookPayloads,
    private readonly nudge: WebhookNudge,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly adAccounts: AdAccountRepository,
    private readonly conversionNudge: ConversionNudge,
  ) {}

  /**
   * Relays the outboxes of up to `limit` orders, all at once (on SQLite their writes share a group
   * commit); resolves how many orders it relayed, 0 once every outbox is empty. The events of
   * dashboards without an endpoint, which make no delivery, go first in one step of the store
   * (`relayUnsubscribed`): on SQLite that step costs a fraction of reading and decoding them, so it
   * takes up to `UNSUBSCRIBED_PER_LIMIT` times as many orders. When it left none of the oldest orders
   * behind, nothing older waits for `pending`, and what was written meanwhile goes the quick way at
   * the next step: `pending` would read and decode it.
   */
  async execute(limit: number): Promise<number> {
    const quick = await this.outbox.relayUnsubscribed(limit * UNSUBSCRIBED_PER_LIMIT);
    if (!quick.leftSome) return quick.relayed;
    const entries = await this.outbox.pending(limit);
    if (entries.length === 0) return quick.relayed;
    const endpointsOf = new Map<string, Promise<readonly WebhookEndpoint[]>>();
    const listed = (dashboardId: string): Promise<readonly WebhookEndpoint[]> => {
      let endpoints = endpointsOf.get(dashboardId);
      if (endpoints === undefined) endpointsOf.set(dashboardId, (endpoints = this.endpoints.listByDashboard(dashboardId)));
      return endpoints;
    };
    const accountsOf = new Map<string, Promise<readonly AdAccount[]>>();
    const accounts = (dashboardId: string): Promise<readonly AdAccount[]> => {
      let listedAccounts = accountsOf.get(dashboardId);
      if (listedAccounts === undefined) accountsOf.set(dashboardId, (listedAccounts = this.adAccounts.listByDashboard(dashboardId)));
      return listedAccounts;
    };
    const made = await Promise.all(
      entries.map(async (entry) => {
        const [endpoints, adAccounts] = await Promise.all([listed(entry.dashboardId), accounts(entry.dashboardId)]);
        const deliveries = this.deliveriesOf(entry, endpoints);
        const conversions = conversionDeliveriesOf(entry.events, adAccounts, this.ids, this.clock.now());
        await this.outbox.relay(entry, deliveries, conversions);
        return { deliveries: deliveries.length, conversions: conversions.length };
      }),
    );
    if (made.some((count) => count.deliveries > 0)) this.nudge.deliveriesDue();
    if (made.some((count) => count.conversions > 0)) this.conversionNudge.conversionsDue();
    return quick.relayed + entries.length;
  }

  private deliveriesOf(entry: OutboxEntry, endpoints: readonly WebhookEndpoint[]): Delivery[] {
    const now = this.clock.now();
    return entry.events.flatMap((event) => {
      const subscribed = endpoints.filter((endpoint) => subscribes(endpoint, event.type));
      if (subscribed.length === 0) return [];
      const rendered = this.payloads.orderEvent(event);
      return subscribed.map((endpoint) =>
        newDelivery(
          {
            id: this.ids.next('dlv'),
            dashboardId: entry.dashboardId,
            endpointId: endpoint.id,
            eventId: event.id,
            eventType: event.type,
            ...rendered,
          },
          now,
        ),
      );
    });
  }
}
