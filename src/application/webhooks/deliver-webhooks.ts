import * as O from 'fp-ts/Option';
import { afterAttempt, failedUnsent, type AttemptResult } from '../../domain/delivery';
import { disableWebhookEndpoint, signingSecrets } from '../../domain/webhook';
import type { Clock } from '../ports/clock';
import type { ClaimedDelivery, DeliveryRepository } from '../ports/delivery-repository';
import type { WebhookEndpointRepository } from '../ports/webhook-endpoint-repository';
import type { WebhookSender } from '../ports/webhook-sender';
import { changeStoredEndpoint } from './stored-webhook-endpoint';
import { whileLeased } from '../shared/lease-renewal';

export interface WebhookSettings {
  /** WEBHOOK_RETRY_SCHEDULE: seconds between attempts; as many retries as delays. */
  readonly retrySchedule: readonly number[];
  /**
   * How long a claim on a delivery holds unless renewed. Short, so that the claims of a process that
   * died end seconds later and another process (or the same one restarted) takes them over.
   */
  readonly leaseMs: number;
  /** How often an attempt in flight renews its claim: well within `leaseMs`. */
  readonly renewEveryMs: number;
}

/** The endpoints and dashboards that already have all the attempts in flight they may have. */
export interface BusyWith {
  readonly endpoints: readonly string[];
  readonly dashboards: readonly string[];
}

/** What came of one claimed delivery, for the logs and the metrics. */
export type AttemptReport =
  | {
      readonly kind: 'attempted';
      readonly deliveryId: string;
      readonly endpointId: string;
      readonly durationMs: number;
      readonly result: AttemptResult;
      /** The delivery's status after it. */
      readonly status: 'pending' | 'succeeded' | 'failed';
      /** False when the lease had been taken over meanwhile: another claimant records its own attempt. */
      readonly recorded: boolean;
      /** The receiver answered 410: the endpoint was disabled. */
      readonly disabledEndpoint: boolean;
    }
  /** Its endpoint was deleted: the delivery was dropped, unsent. */
  | { readonly kind: 'dropped'; readonly deliveryId: string; readonly endpointId: string }
  /** Its endpoint is disabled: the delivery failed, unsent. */
  | { readonly kind: 'skipped'; readonly deliveryId: string; readonly endpointId: string }
  /** The service is stopping: the request was cut off and the delivery handed back, due as it was. */
  | { readonly kind: 'aborted'; readonly deliveryId: string; readonly endpointId: string };

/**
 * The delivery workers' use case: claim due deliveries, make one attempt each, record it, and
 * schedule the next (decision 0012). Claims are leases in the store, so several instances share the
 * work and an attempt is made by one of them at a time.
 */
export class DeliverWebhooks {
  constructor(
    private readonly deliveries: DeliveryRepository,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly sender: WebhookSender,
    private readonly settings: WebhookSettings,
    private readonly clock: Clock,
  ) {}

  /** Claims up to `limit` due deliveries, none of the endpoints and dashboards that are busy. */
  claim(limit: number, busy: BusyWith = { endpoints: [], dashboards: [] }): Promise<readonly ClaimedDelivery[]> {
    return this.deliveries.claimDue({
      now: this.clock.now(),
      leaseMs: this.settings.leaseMs,
      limit,
      skipEndpoints: busy.endpoints,
      skipDashboards: busy.dashboards,
    });
  }

  /**
   * Makes the claimed delivery's attempt: signed with the endpoint's secrets of the moment, sent to
   * its URL of the moment, its claim renewed while the receiver takes its time (a failed renewal is
   * left to `complete`, which then records nothing). A delivery whose endpoint is gone is dropped; one
   * whose endpoint is disabled fails unsent. A 410 disables the endpoint.
   */
  async attempt(claimed: ClaimedDelivery, signal: AbortSignal): Promise<AttemptReport> {
    const { delivery, lease } = claimed;
    const ids = { deliveryId: delivery.id, endpointId: delivery.endpointId };
    const found = await this.endpoints.find(delivery.dashboardId, delivery.endpointId);
    if (O.isNone(found)) {
      await this.deliveries.discard(lease);
      return { kind: 'dropped', ...ids };
    }
    const endpoint = found.value;
    if (!endpoint.enabled) {
      await this.deliveries.complete(lease, failedUnsent(delivery));
      return { kind: 'skipped', ...ids };
    }
    const at = this.clock.now();
    const sent = await whileLeased(
      (until) => this.deliveries.renew(lease, until),
      this.clock,
      this.settings,
      () =>
        this.sender.send(
          { url: endpoint.url, webhookId: delivery.eventId, timestamp: at, body: delivery.body, secrets: signingSecrets(endpoint, at) },
          signal,
        ),
    );
    if (signal.aborted) {
      await this.deliveries.release(lease);
      return { kind: 'aborted', ...ids };
    }
    const after = afterAttempt(
      delivery,
      { at, durationMs: sent.durationMs, result: sent.result },
      this.settings.retrySchedule,
      Math.random(),
    );
    const recorded = await this.deliveries.complete(lease, after.delivery);
    if (after.gone) {
      const reason = `The receiver answered 410 Gone on ${at.toISOString()}`;
      await changeStoredEndpoint(this.endpoints, delivery.dashboardId, delivery.endpointId, (current) =>
        current.enabled ? disableWebhookEndpoint(current, reason, this.clock.now()) : current,
      );
    }
    return {
      kind: 'attempted',
      ...ids,
      durationMs: sent.durationMs,
      result: sent.result,
      status: after.delivery.status,
      recorded,
      disabledEndpoint: after.gone,
    };
  }

  /** Deletes the deliveries past their 30 days; resolves how many. */
  purgeExpired(): Promise<number> {
    return this.deliveries.purgeExpired(this.clock.now());
  }
}
