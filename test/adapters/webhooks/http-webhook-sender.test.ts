import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { HttpWebhookSender, USER_AGENT } from '../../../src/adapters/webhooks/http-webhook-sender';
import { RandomWebhookSecrets } from '../../../src/adapters/system/random-webhook-secrets';
import type { SendOutcome, WebhookRequest } from '../../../src/application/ports/webhook-sender';
import { fakeResolver } from '../../support/fake-resolver';
import { nameFor, REFUSED_ADDRESSES } from '../../support/refused-addresses';
import { WebhookReceiver } from '../../support/webhook-receiver';

const secret = new RandomWebhookSecrets().generate();
const aRequest = (url: string, changes: Partial<WebhookRequest> = {}): WebhookRequest => ({
  url,
  webhookId: 'evt_1',
  timestamp: new Date(),
  body: JSON.stringify({ id: 'evt_1', type: 'order.paid', note: 'ção ✓' }),
  secrets: [secret],
  ...changes,
});
const never = new AbortController().signal;

/** A TCP server that counts the connections made to it, and answers none. */
const connectionCounter = async (): Promise<{ server: Server; port: number; connections: () => number }> => {
  let count = 0;
  const server = createServer((socket) => {
    count += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, connections: () => count };
};

describe('HttpWebhookSender', () => {
  describe('on a development setting (WEBHOOK_ALLOW_PRIVATE_URLS=true)', () => {
    let receiver: WebhookReceiver;
    let sender: HttpWebhookSender;

    beforeEach(async () => {
      receiver = await WebhookReceiver.start();
      sender = new HttpWebhookSender({ timeoutMs: 2_000, allowPrivateUrls: true });
    });
    afterEach(async () => {
      sender.close();
      await receiver.stop();
    });

    it('POSTs the body as JSON with the Standard Webhooks headers, which the standardwebhooks package verifies', async () => {
      const request = aRequest(receiver.url('/orders?source=tests'));
      const sent = await sender.send(request, never);
      expect(sent.result).to.deep.equal({ kind: 'response', status: 204 });
      const [received] = await receiver.waitFor(1);
      expect(received.method).to.equal('POST');
      expect(received.path).to.equal('/orders?source=tests');
      expect(received.body).to.equal(request.body);
      expect(received.headers['content-type']).to.equal('application/json');
      expect(received.headers['user-agent']).to.equal(USER_AGENT);
      expect(received.headers['webhook-id']).to.equal('evt_1');
      expect(receiver.verified(secret)).to.deep.equal([JSON.parse(request.body)]);
    });

    it('says what the receiver answered, whatever the status, and its Retry-After in seconds or as a date', async () => {
      const answers = [
        { status: 200 },
        { status: 500 },
        { status: 410 },
        { status: 503, headers: { 'retry-after': '120' } },
        { status: 429, headers: { 'retry-after': new Date(Date.now() + 3_600_000).toUTCString() } },
      ];
      receiver.respond = (_request, index) => answers[index];
      const results = [];
      for (let i = 0; i < answers.length; i++) results.push((await sender.send(aRequest(receiver.url()), never)).result);
      expect(results.slice(0, 4)).to.deep.equal([
        { kind: 'response', status: 200 },
        { kind: 'response', status: 500 },
        { kind: 'response', status: 410 },
        { kind: 'response', status: 503, retryAfterSeconds: 120 },
      ]);
      expect(results[4]).to.include({ kind: 'response', status: 429 });
      expect((results[4] as { retryAfterSeconds: number }).retryAfterSeconds).to.be.within(3_590, 3_600);
    });

    it('keeps the start of the response body, whole when it is short, as text', async () => {
      const bodies = ['{"error":"unknown order","id":"evt_1"}', Buffer.from([0x6f, 0x6b, 0xff]), ''];
      receiver.respond = (_request, index) => ({ status: index === 0 ? 422 : 200, body: bodies[index] });
      const results = [];
      for (let i = 0; i < bodies.length; i++) results.push((await sender.send(aRequest(receiver.url()), never)).result);
      expect(results).to.deep.equal([
        { kind: 'response', status: 422, body: { text: '{"error":"unknown order","id":"evt_1"}', truncated: false } },
        { kind: 'response', status: 200, body: { text: 'ok\uFFFD', truncated: false } },
        { kind: 'response', status: 200 },
      ]);
    });

    it('stops reading an endless response body after 4 KiB, and closes the connection instead of reading on', async () => {
      let written = 0;
      let onClose: () => void = () => undefined;
      const closed = new Promise<void>((resolve) => (onClose = resolve));
      const endless = createHttpServer((_req, res) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        const more = (): void => {
          // Writes while the client reads; stops once the client has gone.
          while (!res.destroyed && res.write('e'.repeat(1_024))) written += 1_024;
          if (!res.destroyed) res.once('drain', more);
        };
        res.on('close', () => onClose());
        more();
      });
      await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
      try {
        const port = (endless.address() as AddressInfo).port;
        // A timeout far beyond the test's: the attempt ends because the reading stopped, not because time ran out.
        const patient = new HttpWebhookSender({ timeoutMs: 600_000, allowPrivateUrls: true });
        const sent = await patient.send(aRequest(`http://127.0.0.1:${port}/`), never);
        patient.close();
        expect(sent.result).to.deep.equal({ kind: 'response', status: 500, body: { text: 'e'.repeat(4_096), truncated: true } });
        // Never closed, the test would time out here.
        await closed;
        expect(written).to.be.greaterThan(4_096);
      } finally {
        endless.closeAllConnections();
        await new Promise<void>((resolve) => endless.close(() => resolve()));
      }
    });

    it('keeps what arrived of a body that is still coming at the timeout, marked as cut', async () => {
      const slow = createHttpServer((_req, res) => {
        res.writeHead(200);
        res.write('{"started":');
      });
      await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
      try {
        const quick = new HttpWebhookSender({ timeoutMs: 300, allowPrivateUrls: true });
        const sent = await quick.send(aRequest(`http://127.0.0.1:${(slow.address() as AddressInfo).port}/`), never);
        quick.close();
        expect(sent.result).to.deep.equal({ kind: 'response', status: 200, body: { text: '{"started":', truncated: true } });
      } finally {
        slow.closeAllConnections();
        await new Promise<void>((resolve) => slow.close(() => resolve()));
      }
    });

    it('does not follow a redirect: the 3xx is the answer, and its target gets nothing', async () => {
      const target = await WebhookReceiver.start();
      try {
        receiver.respond = () => ({ status: 307, headers: { location: target.url() } });
        expect((await sender.send(aRequest(receiver.url()), never)).result).to.deep.equal({ kind: 'response', status: 307 });
        await receiver.waitFor(1);
        expect(target.received).to.have.length(0);
      } finally {
        await target.stop();
      }
    });

    it('gives up on a receiver that does not answer within the timeout', async () => {
      receiver.respond = () => 'hang';
      const quick = new HttpWebhookSender({ timeoutMs: 200, allowPrivateUrls: true });
      const sent = await quick.send(aRequest(receiver.url()), never);
      quick.close();
      expect(sent.result).to.deep.equal({ kind: 'error', message: 'no answer within 200 ms' });
    });

    it('says when the connection is refused, and when the host name does not resolve', async () => {
      const closed = await connectionCounter();
      await new Promise<void>((resolve) => closed.server.close(() => resolve()));
      expect((await sender.send(aRequest(`http://127.0.0.1:${closed.port}/`), never)).result).to.deep.equal({
        kind: 'error',
        message: 'connection refused',
      });
      const resolving = new HttpWebhookSender({ timeoutMs: 2_000, allowPrivateUrls: true, resolver: fakeResolver({}) });
      expect((await resolving.send(aRequest('http://nowhere.example/'), never)).result).to.deep.equal({
        kind: 'error',
        message: 'host name not resolved',
      });
      resolving.close();
    });

    it('cuts a request off when the service shuts down', async () => {
      receiver.respond = () => 'hang';
      const stop = new AbortController();
      const sending = sender.send(aRequest(receiver.url()), stop.signal);
      await receiver.waitFor(1);
      stop.abort();
      expect((await sending).result).to.deep.equal({ kind: 'error', message: 'cut off: the service was shutting down' });
    });
  });

  describe('outbound safety (the default)', () => {
    let counter: Awaited<ReturnType<typeof connectionCounter>>;
    const resolver = fakeResolver({ 'rebound.example': ['127.0.0.1'], 'mixed.example': ['93.184.216.34', '10.0.0.7'] });
    for (const [, address] of REFUSED_ADDRESSES) resolver.table[nameFor(address)] = [address];
    const sender = new HttpWebhookSender({ timeoutMs: 2_000, allowPrivateUrls: false, resolver });
    const sent = (url: string): Promise<SendOutcome> => sender.send(aRequest(url), never);

    before(async () => {
      counter = await connectionCounter();
    });
    after(async () => {
      sender.close();
      await new Promise<void>((resolve) => counter.server.close(() => resolve()));
    });

    it('refuses loopback written as the host, and never connects', async () => {
      expect((await sent(`https://127.0.0.1:${counter.port}/hook`)).result).to.deep.equal({
        kind: 'error',
        message: 'address not allowed: 127.0.0.1 is a loopback address',
      });
      expect(counter.connections()).to.equal(0);
    });

    it('refuses a host name that resolves to loopback now (DNS rebinding), on the address it would connect to, and never connects', async () => {
      expect((await sent(`https://rebound.example:${counter.port}/hook`)).result).to.deep.equal({
        kind: 'error',
        message: 'address not allowed: 127.0.0.1 is a loopback address',
      });
      expect(counter.connections()).to.equal(0);
    });

    for (const [what, address] of REFUSED_ADDRESSES) {
      it(`refuses ${what} (${address}), written as the host and resolved from a name`, async () => {
        const literal = address.includes(':') ? `[${address}]` : address;
        for (const url of [`https://${literal}:${counter.port}/hook`, `https://${nameFor(address)}:${counter.port}/hook`]) {
          const { result } = await sent(url);
          expect(result.kind, url).to.equal('error');
          expect(result.kind === 'error' && result.message, url).to.match(/^address not allowed: /);
        }
      });
    }

    it('refuses a name of which any address is refused', async () => {
      expect((await sent('https://mixed.example/hook')).result).to.deep.equal({
        kind: 'error',
        message: 'address not allowed: 10.0.0.7 is a private address',
      });
    });

    it('fails closed when the name does not resolve', async () => {
      expect((await sent('https://unknown.example/hook')).result).to.deep.equal({ kind: 'error', message: 'host name not resolved' });
    });

    it('refuses http://', async () => {
      expect((await sent(`http://rebound.example:${counter.port}/`)).result).to.deep.equal({
        kind: 'error',
        message: 'the URL is not https://',
      });
      expect(counter.connections()).to.equal(0);
    });
  });
});
