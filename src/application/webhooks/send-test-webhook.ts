import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { newDelivery, type Delivery } from '../../domain/delivery';
import { webhookDisabled, webhookNotFound, type WebhookDisabled, type WebhookNotFound } from '../shared/errors';
import type { Clock } from '../ports/clock';
import type { DeliveryRepository } from '../ports/delivery-repository';
import type { IdGenerator } from '../ports/id-generator';
import type { WebhookEndpointRepository } from '../ports/webhook-endpoint-repository';
import type { WebhookNudge } from '../ports/webhook-nudge';
import type { WebhookPayloads } from '../ports/webhook-payloads';

export class SendTestWebhook {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: DeliveryRepository,
    private readonly payloads: WebhookPayloads,
    private readonly nudge: WebhookNudge,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  /**
   * Makes a `webhook.test` delivery to the endpoint, whatever event types it subscribes to, due at
   * once; the workers send it like any other, with the same retries. A disabled endpoint is sent nothing.
   */
  async execute(dashboardId: string, id: string): Promise<E.Either<WebhookNotFound | WebhookDisabled, Delivery>> {
    const found = await this.endpoints.find(dashboardId, id);
    if (O.isNone(found)) return E.left(webhookNotFound(id));
    const endpoint = found.value;
    if (!endpoint.enabled) return E.left(webhookDisabled(id));
    const now = this.clock.now();
    const eventId = this.ids.next('evt');
    const rendered = this.payloads.testEvent(eventId, endpoint, now);
    const delivery = newDelivery(
      { id: this.ids.next('dlv'), dashboardId, endpointId: id, eventId, eventType: 'webhook.test', ...rendered },
      now,
    );
    await this.deliveries.insert(delivery);
    this.nudge.deliveriesDue();
    return E.right(delivery);
  }
}
