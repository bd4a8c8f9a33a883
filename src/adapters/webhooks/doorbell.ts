import type { WebhookNudge } from '../../application/ports/webhook-nudge';
import { Doorbell } from '../system/doorbell';

/** The nudges of the use cases, as doorbells of the webhook worker's two loops. */
export class WebhookDoorbells implements WebhookNudge {
  readonly relay = new Doorbell();
  readonly delivery = new Doorbell();

  outboxChanged(): void {
    this.relay.ring();
  }

  deliveriesDue(): void {
    this.delivery.ring();
  }
}
