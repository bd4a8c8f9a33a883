import { connect, type Socket } from 'node:net';
import { expect } from 'chai';
import { inMemoryStorage } from '../../src/adapters/memory/in-memory-storage';
import { HEAVY_REQUEST_BOUNDS, HeavyRequestTurns, type HeavyRequestBounds } from '../../src/adapters/system/heavy-request-turns';
import type { Storage } from '../../src/application/ports/storage';
import { ConsoleSession } from '../support/console-session';
import { anOrderPayload } from '../support/order-builder';
import { TestApi, type ApiResponse } from '../support/test-api';
import { expectProblem } from './problem-assertions';
import { parseRaw } from './raw-request';
import { LINGER_MS } from '../../src/adapters/http/kit/server';
import { DashboardShares } from '../../src/adapters/system/dashboard-shares';

const BATCH = '/api/v1/orders/batch';
const HEAVY = 64 * 1024;
const JSON_TYPE = { 'content-type': 'application/json' };

/** A valid batch of `n` orders, padded with whitespace past the heavy threshold. */
const heavyBatch = (prefix: string, n = 2): string =>
  JSON.stringify({ orders: Array.from({ length: n }, (_, i) => anOrderPayload({ externalId: `${prefix}-${i}` })) }) +
  ' '.repeat(HEAVY + 1024);

/** Resolves once `condition` holds, looking again at each turn of the event loop. */
const until = async (condition: () => boolean): Promise<void> => {
  while (!condition()) await new Promise((done) => setTimeout(done, 5));
};

/**
 * A heavy request held open: its headers and the start of its body sent, the rest never. `chunked`
 * sends it without Content-Length.
 */
const holdOpen = (url: string, token: string, chunked = false): Socket => {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  socket.on('error', () => undefined);
  const length = chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${HEAVY * 2}`;
  socket.write(
    `POST ${BATCH} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\n${length}\r\n\r\n` +
      (chunked ? '5\r\n{"ord\r\n' : '{"ord'),
  );
  return socket;
};

/** Each dashboard's turns for large bodies (decision 0023): one dashboard's flood cannot take another's share of the event loop. */
describe('heavy requests take turns per dashboard (decision 0023)', function () {
  this.timeout(30_000);
  let storage: Storage;
  let api: TestApi;
  let turns: HeavyRequestTurns;
  let a: { dashboardId: string; token: string };
  let b: { dashboardId: string; token: string };
  const sockets: Socket[] = [];

  const start = async (
    bounds: Pick<HeavyRequestBounds, 'perDashboard' | 'queue'>,
    wrap: (s: Storage) => Storage = (s) => s,
    shares?: DashboardShares,
  ) => {
    storage = inMemoryStorage();
    // The default rest: a turn given back goes to the next after resting as long as it was held.
    turns = new HeavyRequestTurns({ ...bounds, heavyBodyBytes: HEAVY, rest: HEAVY_REQUEST_BOUNDS.rest });
    api = await TestApi.start({}, { storage: wrap(storage), heavyTurns: turns, ...(shares === undefined ? {} : { shares }) });
    a = await api.newDashboard('Attacker');
    b = await api.newDashboard('Neighbour');
  };
  const hold = (token: string, chunked = false): Socket => {
    const socket = holdOpen(api.url, token, chunked);
    sockets.push(socket);
    return socket;
  };
  const postBatch = (token: string, body: string): Promise<ApiResponse> =>
    api.request('POST', BATCH, { token, rawBody: body, headers: JSON_TYPE });
  const idle = (dashboardId: string) => () => turns.load(dashboardId).running === 0 && turns.load(dashboardId).waiting === 0;

  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await api.stop();
  });

  it("answers 429 TOO_MANY_HEAVY_REQUESTS with Retry-After past the dashboard's turns and queue, reading nothing, while another dashboard's heavy request is served", async () => {
    await start({ perDashboard: 2, queue: 1 });
    hold(a.token);
    hold(a.token, true);
    await until(() => turns.load(a.dashboardId).running === 2);
    hold(a.token);
    await until(() => turns.load(a.dashboardId).waiting === 1);

    const refused = await postBatch(a.token, heavyBatch('a'));
    const problem = expectProblem(refused, 429, 'TOO_MANY_HEAVY_REQUESTS');
    expect(refused.headers.get('retry-after')).to.equal('1');
    expect(refused.headers.get('connection')).to.equal('close');
    expect(problem.detail).to.equal(
      'This dashboard may have 2 requests with a large body in progress and 1 waiting (HEAVY_REQUESTS_PER_DASHBOARD, ' +
        'HEAVY_REQUEST_QUEUE), and this one goes beyond it: retry in 1 s',
    );
    expect(turns.load(a.dashboardId)).to.deep.equal({ running: 2, waiting: 1 });

    const served = await postBatch(b.token, heavyBatch('b'));
    expect(served.status, served.text).to.equal(200);
    expect(served.body).to.include({ created: 2, failed: 0 });
    expect(served.headers.get('retry-after')).to.equal(null);
    expect(
      (await api.request('POST', '/api/v1/orders', { token: a.token, body: anOrderPayload({ externalId: 'light' }) })).status,
    ).to.equal(201);
    const listed = await api.request('GET', '/api/v1/orders?pageSize=100', { token: a.token });
    expect(listed.body.orders.map((o: { externalId: string }) => o.externalId)).to.deep.equal(['light']);
  });

  /** A raw connection, connected, that reads nothing until `resume()`: a client too busy to read. */
  const busyClient = async (): Promise<{ socket: Socket; failure: () => string | undefined; answer: () => Promise<string> }> => {
    const { hostname, port } = new URL(api.url);
    const socket = connect(Number(port), hostname);
    sockets.push(socket);
    let failure: string | undefined;
    socket.on('error', (err: NodeJS.ErrnoException) => (failure = err.code));
    const closed = new Promise((done) => socket.once('close', done));
    await new Promise((done) => socket.once('connect', done));
    socket.pause();
    const answer = async (): Promise<string> => {
      let received = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => (received += chunk));
      socket.resume();
      await closed;
      return received;
    };
    return { socket, failure: () => failure, answer };
  };
  const heavyHead = (token: string, length: number): string =>
    `POST ${BATCH} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${length}\r\n\r\n`;

  it('lets a client that goes on sending its body read the 429, with no reset while it sends: the connection is not closed at the answer', async () => {
    await start({ perDashboard: 1, queue: 0 });
    hold(a.token);
    await until(() => turns.load(a.dashboardId).running === 1);
    const client = await busyClient();
    const length = 16 * HEAVY;
    client.socket.write(heavyHead(a.token, length));
    // The answer waits unread in the client's buffer while it goes on writing the body.
    await until(() => client.socket.readableLength > 0 || client.failure() !== undefined);
    for (let sent = 0; sent < length && client.failure() === undefined; sent += HEAVY) {
      client.socket.write(' '.repeat(HEAVY));
      await new Promise((done) => setTimeout(done, 5));
    }
    const refused = parseRaw(await client.answer());
    expect(client.failure(), 'no reset while the body was still being sent').to.equal(undefined);
    expectProblem(refused, 429, 'TOO_MANY_HEAVY_REQUESTS');
    expect(refused.headers.get('connection')).to.equal('close');
    expect(turns.load(a.dashboardId)).to.deep.equal({ running: 1, waiting: 0 });
  });

  /** Sends a 4 MiB body in one write with `token`: the answer, what the service read of the connection, and when it closed. */
  const sendFourMiB = async (token: string): Promise<{ refused: ApiResponse; bytesRead: number; closedAfterMs: number }> => {
    const read: number[] = [];
    const record = (socket: Socket): void => {
      socket.once('close', () => read.push(socket.bytesRead));
    };
    api.service.server.on('connection', record);
    try {
      const client = await busyClient();
      const length = 4 * 1024 * 1024;
      const sent = performance.now();
      // The whole body in one write: the client's side sends it as fast as the server's takes it.
      client.socket.write(heavyHead(token, length) + ' '.repeat(length));
      const refused = parseRaw(await client.answer());
      const closedAfterMs = performance.now() - sent;
      await until(() => read.length > 0);
      return { refused, bytesRead: read[0], closedAfterMs };
    } finally {
      api.service.server.off('connection', record);
    }
  };

  it('reads at most 64 KiB of a refused body and closes a second after the answer: a flood of refused 4 MiB bodies is not read', async () => {
    await start({ perDashboard: 1, queue: 0 });
    hold(a.token);
    await until(() => turns.load(a.dashboardId).running === 1);
    const { refused, bytesRead, closedAfterMs } = await sendFourMiB(a.token);
    expectProblem(refused, 429, 'TOO_MANY_HEAVY_REQUESTS');
    expect(bytesRead, 'bytes the service read of the 4 MiB body').to.be.below(256 * 1024);
    expect(closedAfterMs, 'closed a second after the answer, give or take').to.be.below(LINGER_MS + 2_000);
  });

  it('closes the connection of any answer given before its body is in (401, a token that does not exist): the body is not read', async () => {
    await start({ perDashboard: 1, queue: 0 });
    const { refused, bytesRead } = await sendFourMiB('not-a-token');
    expectProblem(refused, 401, 'UNAUTHORIZED');
    expect(refused.headers.get('connection')).to.equal('close');
    expect(bytesRead, 'bytes the service read of the 4 MiB body').to.be.below(256 * 1024);
  });

  it("holds a dashboard to two requests in progress while another dashboard is active; the other's are served meanwhile", async () => {
    const shares = new DashboardShares(2, 60_000);
    await start({ perDashboard: 1, queue: 1 }, undefined, shares);
    const running = hold(a.token);
    hold(a.token);
    await until(() => shares.load(a.dashboardId).inFlight === 2);
    const other = await api.request('GET', '/api/v1/orders', { token: b.token });
    expect(other.status, other.text).to.equal(200);
    let answered = false;
    const waiting = api.request('GET', '/api/v1/orders', { token: a.token }).then((res) => ((answered = true), res));
    await until(() => shares.load(a.dashboardId).waiting === 1);
    expect(answered).to.equal(false);
    expect((await api.request('GET', '/api/v1/orders', { token: b.token })).status, 'the other dashboard is not held').to.equal(200);
    running.destroy();
    const served = await waiting;
    expect(served.status, served.text).to.equal(200);
    expect(shares.load(a.dashboardId).waiting).to.equal(0);
  });

  it('serves no request sent behind a refused one on its connection', async () => {
    await start({ perDashboard: 1, queue: 0 });
    const made = await api.request('POST', '/api/v1/links', {
      token: a.token,
      body: { destinationUrl: 'https://shop.example/', utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'promo' },
    });
    expect(made.status, made.text).to.equal(201);
    const slug = new URL(made.body.link.shortUrl as string).pathname;
    hold(a.token);
    await until(() => turns.load(a.dashboardId).running === 1);
    const client = await busyClient();
    client.socket.write(
      `POST ${BATCH} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${a.token}\r\nContent-Type: application/json\r\n` +
        'Transfer-Encoding: chunked\r\n\r\n5\r\n{"ord\r\n',
    );
    await until(() => client.socket.readableLength > 0 || client.failure() !== undefined);
    // The body's last chunk and a click in one small write, read by the server at once. A click needs
    // no body: nothing but the connection's state can keep it from being counted.
    client.socket.write(`0\r\n\r\nGET ${slug} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    await client.answer();
    const link = await api.request('GET', `/api/v1/links/${made.body.link.id}`, { token: a.token });
    expect(link.body.link.clicks, 'the click sent behind the refused request').to.equal(0);
  });

  it("says the same to a refused dashboard whatever another dashboard is doing: its own bounds, never another's load", async () => {
    await start({ perDashboard: 1, queue: 0 });
    hold(a.token);
    await until(() => turns.load(a.dashboardId).running === 1);
    const alone = await postBatch(a.token, heavyBatch('a'));
    hold(b.token);
    await until(() => turns.load(b.dashboardId).running === 1);
    const beside = await postBatch(a.token, heavyBatch('a'));
    const withoutId = (res: ApiResponse) => ({ ...res.body, requestId: undefined });
    expect(withoutId(beside)).to.deep.equal(withoutId(alone));
    expect(expectProblem(beside, 429, 'TOO_MANY_HEAVY_REQUESTS').detail).not.to.include(b.dashboardId);
    expect([...beside.headers.keys()].sort()).to.deep.equal([...alone.headers.keys()].sort());
  });

  it('gives the turn back on success, on a refused body (400, 413) and on a failing store (500)', async () => {
    const failingSpend = (s: Storage): Storage =>
      new Proxy(s, {
        get: (target, prop) =>
          prop === 'spend'
            ? new Proxy(target.spend, { get: () => async () => Promise.reject(new Error('the disk is gone')) })
            : Reflect.get(target, prop),
      });
    await start({ perDashboard: 1, queue: 0 }, failingSpend);
    for (let round = 0; round < 2; round++) {
      const ok = await postBatch(a.token, heavyBatch(`ok-${round}`));
      expect(ok.status, ok.text).to.equal(200);
      await until(idle(a.dashboardId));
      expectProblem(await postBatch(a.token, `{"orders":[${' '.repeat(HEAVY)}`), 400, 'MALFORMED_JSON');
      await until(idle(a.dashboardId));
      expectProblem(await postBatch(a.token, '['.repeat(4) + ' '.repeat(5 * 1024 * 1024)), 413, 'PAYLOAD_TOO_LARGE');
      await until(idle(a.dashboardId));
      const spend = { entries: [{ date: '2026-11-20', utmSource: 'g', utmCampaign: 'c', currency: 'BRL', amountCents: 1 }] };
      const failed = await api.request('PUT', '/api/v1/spend', {
        token: a.token,
        rawBody: JSON.stringify(spend) + ' '.repeat(HEAVY),
        headers: JSON_TYPE,
      });
      expect(failed.status, failed.text).to.equal(500);
      await until(idle(a.dashboardId));
    }
  });

  it('gives the turn back when the client goes away mid-body, and takes a waiter that goes away out of the queue', async () => {
    await start({ perDashboard: 1, queue: 1 });
    const running = hold(a.token);
    await until(() => turns.load(a.dashboardId).running === 1);
    const waiting = hold(a.token);
    await until(() => turns.load(a.dashboardId).waiting === 1);
    waiting.destroy();
    await until(() => turns.load(a.dashboardId).waiting === 0);
    expect(turns.load(a.dashboardId)).to.deep.equal({ running: 1, waiting: 0 });
    running.destroy();
    await until(idle(a.dashboardId));
    const after = await postBatch(a.token, heavyBatch('after'));
    expect(after.status, after.text).to.equal(200);
  });

  it("counts a large delivery to a source against the source's dashboard, and deliveries to unknown sources in a lane of their own", async () => {
    await start({ perDashboard: 1, queue: 0 });
    const made = await api.request('POST', '/api/v1/sources', {
      token: a.token,
      body: { platform: 'shopify', name: 'Shop', secret: 'a-shopify-secret-0123456789' },
    });
    expect(made.status, made.text).to.equal(201);
    const deliver = (sourceId: string) =>
      api.request('POST', `/in/v1/${sourceId}`, {
        rawBody: 'x'.repeat(HEAVY + 1),
        headers: { ...JSON_TYPE, 'x-shopify-hmac-sha256': 'bm90IHRoZSBzaWduYXR1cmU=', 'x-shopify-topic': 'orders/create' },
      });
    const unknown = 'src_0000000000000000000000';
    expectProblem(await deliver(made.body.source.id), 401, 'INVALID_SIGNATURE');
    // Its turn rests as long as it was held before the lane is free again.
    await until(idle(a.dashboardId));
    const held = hold(a.token);
    await until(() => turns.load(a.dashboardId).running === 1);
    const refused = await deliver(made.body.source.id);
    expectProblem(refused, 429, 'TOO_MANY_HEAVY_REQUESTS');
    expect(refused.headers.get('retry-after')).to.equal('1');
    expectProblem(await deliver(unknown), 404, 'NOT_FOUND');
    held.destroy();
    await until(idle(a.dashboardId));
    expectProblem(await deliver(made.body.source.id), 401, 'INVALID_SIGNATURE');
    expect(turns.load('deliveries to unknown sources')).to.deep.equal({ running: 0, waiting: 0 });
  });

  it("shares the dashboard's turns with the console's uploads: 429 with Retry-After before the file is read, served once the turn is free", async () => {
    await start({ perDashboard: 1, queue: 0 });
    const session = await ConsoleSession.signIn(api, storage, a.dashboardId);
    const csv = `date,utm_source,utm_medium,utm_campaign,utm_content,currency,amount\n${'2026-03-01,google,cpc,promo,,BRL,1\n'.repeat(3_000)}`;
    const upload = () => {
      const form = new FormData();
      form.set('file', new Blob([csv], { type: 'text/csv' }), 'spend.csv');
      return session.post('/console/spend', '/console/spend', form);
    };
    const held = hold(a.token);
    await until(() => turns.load(a.dashboardId).running === 1);
    const refused = await upload();
    expect(refused.status, refused.text).to.equal(429);
    expect(refused.headers.get('retry-after')).to.equal('1');
    expect(refused.text).to.include(
      'This dashboard already has an upload in progress and 0 waiting, the most it may have; try again in 1 s.',
    );
    expect((await storage.spend.list(a.dashboardId, { page: 1, pageSize: 1 })).total).to.equal(0);
    held.destroy();
    await until(idle(a.dashboardId));
    const stored = await upload();
    // Post/Redirect/Get: the upload answers with a redirect to the Spend page, which says what was stored.
    expect([stored.status, stored.headers.get('location')], stored.text).to.deep.equal([303, '/console/spend']);
    expect((await storage.spend.list(a.dashboardId, { page: 1, pageSize: 1 })).total).to.equal(1);
    await until(idle(a.dashboardId));
  });

  it('refuses an upload whose form ends inside its file, and gives the turn back when the client goes away mid-upload', async () => {
    await start({ perDashboard: 1, queue: 0 });
    const session = await ConsoleSession.signIn(api, storage, a.dashboardId);
    const part = '--XX\r\nContent-Disposition: form-data; name="file"; filename="spend.csv"\r\nContent-Type: text/csv\r\n\r\n';
    const cut = await fetch(`${api.url}/console/spend`, {
      method: 'POST',
      headers: { ...session.headers, 'content-type': 'multipart/form-data; boundary=XX' },
      body: `${part}date,utm_source,utm_medium`,
      redirect: 'manual',
    });
    expect(cut.status).to.equal(400);
    expect(await cut.text()).to.include('the upload could not be read');

    const { hostname, port } = new URL(api.url);
    const socket = connect(Number(port), hostname);
    sockets.push(socket);
    socket.on('error', () => undefined);
    socket.write(
      `POST /console/spend HTTP/1.1\r\nHost: ${hostname}\r\nCookie: ${session.headers.cookie}\r\nOrigin: ${session.headers.origin}\r\n` +
        `Content-Type: multipart/form-data; boundary=XX\r\nContent-Length: ${HEAVY * 2}\r\n\r\n${part}date,utm_source`,
    );
    await until(() => turns.load(a.dashboardId).running === 1);
    socket.destroy();
    await until(idle(a.dashboardId));
    const form = new FormData();
    form.set(
      'file',
      new Blob(['date,utm_source,utm_medium,utm_campaign,utm_content,currency,amount\n2026-03-01,google,cpc,promo,,BRL,1\n']),
      'spend.csv',
    );
    const stored = await session.post('/console/spend', '/console/spend', form);
    expect([stored.status, stored.headers.get('location')], stored.text).to.deep.equal([303, '/console/spend']);
  });
});
