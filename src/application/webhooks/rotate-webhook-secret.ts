import * as E from 'fp-ts/Either';
import { rotateWebhookSecret, type WebhookEndpoint } from '../../domain/webhook';
import { webhookNotFound, type WebhookNotFound } from '../shared/errors';
import type { Clock } from '../ports/clock';
import type { WebhookEndpointRepository } from '../ports/webhook-endpoint-repository';
import type { WebhookSecrets } from '../ports/webhook-secrets';
import { changeStoredEndpoint } from './stored-webhook-endpoint';

export class RotateWebhookSecret {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly secrets: WebhookSecrets,
    private readonly clock: Clock,
  ) {}

  /** A new secret for the endpoint; the one it replaces signs beside it for 24 h (decision 0012). */
  async execute(dashboardId: string, id: string): Promise<E.Either<WebhookNotFound, WebhookEndpoint>> {
    const secret = this.secrets.generate();
    const rotated = await changeStoredEndpoint(this.endpoints, dashboardId, id, (current) =>
      rotateWebhookSecret(current, secret, this.clock.now()),
    );
    return E.fromOption(() => webhookNotFound(id))(rotated);
  }
}
