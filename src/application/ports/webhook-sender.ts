import type { AttemptResult } from '../../domain/delivery';

export interface WebhookRequest {
  readonly url: string;
  /** The event id: `webhook-id`. */
  readonly webhookId: string;
  /** `webhook-timestamp`: when this attempt is made. */
  readonly timestamp: Date;
  readonly body: string;
  /** Each signs the request; two while a rotated secret overlaps the new one. */
  readonly secrets: readonly string[];
}

export interface SendOutcome {
  readonly durationMs: number;
  readonly result: AttemptResult;
}

/** Sends one signed webhook request (Standard Webhooks). */
export interface WebhookSender {
  /**
   * Makes one attempt and says what came of it; never rejects. No redirect is followed; of the
   * response body, at most RESPONSE_BODY_LIMIT_BYTES are read and kept (ResponseBody), never the
   * rest. `signal` aborts the request (the service is shutting down).
   */
  send(request: WebhookRequest, signal: AbortSignal): Promise<SendOutcome>;
}
