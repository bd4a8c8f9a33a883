import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { RESPONSE_BODY_LIMIT_BYTES, type AttemptResult } from '../../domain/delivery';
import type { SendOutcome, WebhookRequest, WebhookSender } from '../../application/ports/webhook-sender';
import { refusedAddress, type Resolver } from './outbound-addresses';
import { keptResponseBody } from './response-body';
import { signedHeaders } from './standard-webhooks-signature';

export interface SenderOptions {
  /**
   * WEBHOOK_TIMEOUT_MS: a receiver must have answered (status and headers) within it; what arrived of
   * the body by then is kept, marked as cut.
   */
  readonly timeoutMs: number;
  /** WEBHOOK_ALLOW_PRIVATE_URLS: lifts the address rules, and allows `http://` (development and tests only). */
  readonly allowPrivateUrls: boolean;
  /** Resolves host names; the system's by default. */
  readonly resolver?: Resolver;
}

/** What the service calls itself in `User-Agent`. */
export const USER_AGENT = 'orders-service-webhooks/1';

/**
 * Sends webhooks with node:http(s) through request-filtering-agent, which checks the address of every
 * connection after resolution and refuses any that is not public unicast: a name that resolves to an
 * inside address after the endpoint was saved (DNS rebinding) reaches nothing. Redirects are not
 * followed (a 3xx is a non-2xx like any other). Of the answer, the status, `Retry-After` and the
 * body's first RESPONSE_BODY_LIMIT_BYTES are read: reading stops there (the connection is closed
 * rather than the rest read), or at the timeout, so an endless reply never holds an attempt longer.
 */
export class HttpWebhookSender implements WebhookSender {
  private readonly httpsAgent: RequestFilteringHttpsAgent;
  private readonly httpAgent: RequestFilteringHttpAgent;

  constructor(private readonly options: SenderOptions) {
    const filtering = { keepAlive: true, allowPrivateIPAddress: options.allowPrivateUrls, allowMetaIPAddress: options.allowPrivateUrls };
    this.httpsAgent = new RequestFilteringHttpsAgent(filtering);
    this.httpAgent = new RequestFilteringHttpAgent(filtering);
  }

  send(request: WebhookRequest, signal: AbortSignal): Promise<SendOutcome> {
    const started = performance.now();
    const outcome = (result: AttemptResult): SendOutcome => ({ durationMs: Math.round(performance.now() - started), result });
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return Promise.resolve(outcome({ kind: 'error', message: 'the URL is not valid' }));
    }
    const secure = url.protocol === 'https:';
    if (!secure && !(url.protocol === 'http:' && this.options.allowPrivateUrls)) {
      return Promise.resolve(outcome({ kind: 'error', message: 'the URL is not https://' }));
    }
    const body = Buffer.from(request.body, 'utf8');
    const headers = {
      'content-type': 'application/json',
      'content-length': String(body.length),
      'user-agent': USER_AGENT,
      ...signedHeaders(request),
    };
    return new Promise<SendOutcome>((resolve) => {
      let settled = false;
      const finish = (result: AttemptResult): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome(result));
      };
      const options = {
        method: 'POST',
        headers,
        agent: secure ? this.httpsAgent : this.httpAgent,
        signal,
        ...(this.options.resolver === undefined ? {} : { lookup: this.options.resolver }),
      };
      /** Set once the status and headers arrived: what the body's end, its limit or the timeout completes. */
      let answered: ((complete: boolean) => void) | undefined;
      const req = (secure ? httpsRequest : httpRequest)(url, options, (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let read = 0;
        const status = res.statusCode ?? 0;
        const retryAfter = retryAfterOf(res);
        answered = (complete) => {
          const body = keptResponseBody(Buffer.concat(chunks), complete);
          finish({ kind: 'response', status, ...retryAfter, ...(body === undefined ? {} : { body }) });
        };
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          read += chunk.length;
          if (read <= RESPONSE_BODY_LIMIT_BYTES) return;
          answered?.(false);
          res.destroy();
        });
        res.on('end', () => answered?.(true));
        // Reset or destroyed before its end: what arrived, marked as cut.
        res.on('close', () => answered?.(false));
        res.on('error', () => undefined);
      });
      const timer = setTimeout(() => {
        if (answered === undefined) finish({ kind: 'error', message: `no answer within ${this.options.timeoutMs} ms` });
        else answered(false);
        req.destroy();
      }, this.options.timeoutMs);
      req.on('error', (err) => finish({ kind: 'error', message: describe(err, signal) }));
      req.end(body);
    });
  }

  /** Closes the idle connections kept for reuse. */
  close(): void {
    this.httpsAgent.destroy();
    this.httpAgent.destroy();
  }
}

/** `Retry-After` in seconds, whether given as seconds or as an HTTP date; nothing when absent or unreadable. */
const retryAfterOf = (res: IncomingMessage): { retryAfterSeconds?: number } => {
  const value = res.headers['retry-after'];
  if (value === undefined || value === '') return {};
  if (/^\d+$/.test(value)) return { retryAfterSeconds: Number(value) };
  const at = Date.parse(value);
  return Number.isNaN(at) ? {} : { retryAfterSeconds: Math.max(0, Math.ceil((at - Date.now()) / 1000)) };
};

/** The failure in words for the delivery log: never a stack, never a response body. */
const describe = (err: Error & { code?: string }, signal: AbortSignal): string => {
  if (signal.aborted) return 'cut off: the service was shutting down';
  // request-filtering-agent: "DNS lookup <address>(family:…, host:…) is not allowed. Because, …"
  const refused = /^DNS lookup (\S+?)\(.*is not allowed/.exec(err.message);
  if (refused !== null) return `address not allowed: ${refused[1]} is ${refusedAddress(refused[1]) ?? 'refused'}`;
  switch (err.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host name not resolved';
    case 'ETIMEDOUT':
      return 'connection timed out';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'host unreachable';
    default:
      return err.code?.startsWith('ERR_TLS') || err.code?.includes('CERT')
        ? `TLS failed (${err.code})`
        : `request failed (${err.code ?? err.name})`;
  }
};
