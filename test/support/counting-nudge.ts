import type { WebhookNudge } from '../../src/application/ports/webhook-nudge';

/** A nudge that counts, for use cases run without a worker. */
export class CountingNudge implements WebhookNudge {
  outboxChanges = 0;
  dueDeliveries = 0;

  outboxChanged(): void {
    this.outboxChanges += 1;
  }

  deliveriesDue(): void {
    this.dueDeliveries += 1;
  }
}
