import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** How the receiver answers a request: a status (and headers, and a body), or not at all until it stops. */
export type Answer = { readonly status: number; readonly headers?: Record<string, string>; readonly body?: string | Buffer } | 'hang';
export type Responder = (request: ReceivedRequest, index: number) => Answer | Promise<Answer>;

/**
 * A webhook receiver: a real HTTP server on loopback that records every request and answers as the
 * test says (204 with no body by default). Requests are verified with the `standardwebhooks` package, as a
 * receiver would.
 */
export class WebhookReceiver {
  readonly received: ReceivedRequest[] = [];
  private waiters: (() => void)[] = [];

  private constructor(
    private readonly server: Server,
    public respond: Responder,
  ) {}

  static async start(respond: Responder = () => ({ status: 204 }), port = 0): Promise<WebhookReceiver> {
    let receiver: WebhookReceiver | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const request = {
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        const index = receiver!.received.push(request) - 1;
        const answered = receiver!.respond(request, index);
        receiver!.wake();
        void Promise.resolve(answered).then((answer) => {
          if (answer === 'hang' || res.destroyed) return;
          res.writeHead(answer.status, answer.headers);
          res.end(answer.body ?? '');
        });
      });
    });
    receiver = new WebhookReceiver(server, respond);
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Resolves once `count` requests have arrived; fails after `ms`. */
  async waitFor(count: number, ms = 10_000): Promise<ReceivedRequest[]> {
    const deadline = Date.now() + ms;
    while (this.received.length < count) {
      if (Date.now() > deadline) throw new Error(`the receiver got ${this.received.length} requests, not ${count}, within ${ms} ms`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    return this.received.slice(0, count);
  }

  /** The events received, each verified with `secret` (throws on a request it does not verify). */
  verified(secret: string, requests: readonly ReceivedRequest[] = this.received): any[] {
    const webhook = new Webhook(secret);
    return requests.map((request) => webhook.verify(request.body, request.headers as Record<string, string>));
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

/** Waits until `check` holds (polling), or fails after `ms` with `what`. */
export const eventually = async <T>(what: string, check: () => Promise<T | undefined | false>, ms = 10_000): Promise<T> => {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};
