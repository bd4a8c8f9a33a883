import * as E from 'fp-ts/Either';
import { inject, injectable } from 'tsyringe';
import { rotateWebhookSecret, type WebhookEndpoint } from '../../domain/webhook';
import { webhookNotFound, type WebhookNotFound } from '../shared/errors';
import { CLOCK, type Clock } from '../ports/clock';
import { WEBHOOK_ENDPOINTS, type WebhookEndpointRepository } from '../ports/webhook-endpoint-repository';
import { WEBHOOK_SECRETS, type WebhookSecrets } from '../ports/webhook-secrets';
import { changeStoredEndpoint } from './stored-webhook-endpoint';

@injectable()
export class RotateWebhookSecret {
  constructor(
    @inject(WEBHOOK_ENDPOINTS) private readonly endpoints: WebhookEndpointRepository,
    @inject(WEBHOOK_SECRETS) private readonly secrets: WebhookSecrets,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** A new secret for the endpoint; the one it replaces signs beside it for 24 h (DECISIONS D12). */
  async execute(dashboardId: string, id: string): Promise<E.Either<WebhookNotFound, WebhookEndpoint>> {
    const secret = this.secrets.generate();
    const rotated = await changeStoredEndpoint(this.endpoints, dashboardId, id, (current) =>
      rotateWebhookSecret(current, secret, this.clock.now()),
    );
    return E.fromOption(() => webhookNotFound(id))(rotated);
  }
}
