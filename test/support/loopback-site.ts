import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a site received. */
export interface Received {
  readonly method: string;
  /** Path and query, as sent. */
  readonly url: string;
  readonly contentType: string;
  readonly body: string;
}

export interface Answer {
  readonly status?: number;
  readonly type?: string;
  readonly body: string;
}

type Handler = (request: Received) => Answer | Promise<Answer>;

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

/**
 * A web site on a loopback port for the browser tests: a shop or a checkout. It listens on 127.0.0.1
 * and is reached under `hostName` (127.0.0.1 or localhost), so two sites are two origins with two host
 * names. Pages are registered by path; every request is recorded.
 */
export class LoopbackSite {
  readonly received: Received[] = [];
  private readonly handlers = new Map<string, Handler>();

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(hostName: '127.0.0.1' | 'localhost'): Promise<LoopbackSite> {
    let site: LoopbackSite | undefined;
    const server = createServer((req, res) => {
      void (async () => {
        const request: Received = {
          method: req.method ?? '',
          url: req.url ?? '/',
          contentType: req.headers['content-type'] ?? '',
          body: await readBody(req),
        };
        site!.received.push(request);
        const handler = site!.handlers.get(new URL(request.url, 'http://x').pathname);
        const answer = handler === undefined ? { status: 404, body: 'not found' } : await handler(request);
        res.writeHead(answer.status ?? 200, { 'content-type': answer.type ?? 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        res.end(answer.body);
      })().catch(() => {
        res.writeHead(500);
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    site = new LoopbackSite(server, `http://${hostName}:${(server.address() as AddressInfo).port}`);
    return site;
  }

  /** Serves `html` at `path` (any query). */
  page(path: string, html: string): void {
    this.handlers.set(path, () => ({ body: html }));
  }

  handle(path: string, handler: Handler): void {
    this.handlers.set(path, handler);
  }

  /** The requests received for `path`, any query. */
  requestsTo(path: string): Received[] {
    return this.received.filter((request) => new URL(request.url, 'http://x').pathname === path);
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

export interface PageOptions {
  /** Where the service runs: the script is `${service}/tracker.js`. */
  readonly service: string;
  /** The script tag's data-* attributes; `data-checkout-hosts` defaults to `localhost`. */
  readonly data?: Readonly<Record<string, string>>;
  /** Run before the script tag, e.g. to queue calls. */
  readonly before?: string;
  readonly body?: string;
}

/** A page with the snippet a shop pastes (decision 0014), `async` as shops are told to. */
export const shopPage = ({ service, data = {}, before = '', body = '' }: PageOptions): string => {
  const attributes = Object.entries({ 'checkout-hosts': 'localhost', ...data })
    .map(([name, value]) => ` data-${name}="${value}"`)
    .join('');
  return [
    '<!doctype html><html><head><meta charset="utf-8"><title>page</title>',
    before === '' ? '' : `<script>${before}</script>`,
    `<script src="${service}/tracker.js"${attributes} async></script>`,
    `</head><body>${body}</body></html>`,
  ].join('');
};
