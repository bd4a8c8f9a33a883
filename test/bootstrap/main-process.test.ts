import { request } from 'node:http';
import { connect, createServer, type AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { expect } from 'chai';
import { anOrderPayload } from '../support/order-builder';
import { temporaryFolder } from '../support/sqlite-files';
import { freePort, ServiceProcess } from './service-process';

const ADMIN = 'process-test-admin-token-42';
const NONBLOCKING_STDOUT = resolve(__dirname, 'nonblocking-stdout.js');
const STRAY_REJECTION = resolve(__dirname, 'stray-rejection.js');
/** Enough access-log lines (about 700 kB) to fill the pipe while the test does not read it. */
const STALLED_REQUESTS = 2_000;

/** Sends the headers and the first half of a POST, and the rest on `finish()`: a request kept in flight. */
const slowPost = (url: string, path: string, token: string, body: string) => {
  const half = Math.floor(body.length / 2);
  const req = request(new URL(path, url), {
    method: 'POST',
    agent: false,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
  });
  const status = new Promise<number>((done, fail) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode ?? 0));
    });
    req.on('error', fail);
  });
  req.write(body.slice(0, half));
  return { finish: () => req.end(body.slice(half)), status };
};

/** Whether a new TCP connection to `port` is accepted. */
const accepts = (port: number): Promise<boolean> =>
  new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });

/** `node main.js`: start-up, configuration errors and graceful shutdown (decisions 0010, 0011). */
describe('the service process', function () {
  this.timeout(30_000);
  let service: ServiceProcess | undefined;
  let folder: ReturnType<typeof temporaryFolder>;

  beforeEach(() => {
    folder = temporaryFolder();
  });

  afterEach(async () => {
    await service?.dispose();
    service = undefined;
    folder.remove();
  });

  /** The service on its default store, the SQLite file in a folder of this test. */
  const start = async (env: Record<string, string> = {}): Promise<{ url: string; proc: ServiceProcess }> => {
    const port = await freePort();
    const proc = new ServiceProcess({ PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', SQLITE_PATH: folder.path, ...env });
    service = proc;
    await proc.waitForLine((line) => line.includes('"listening"'));
    return { url: `http://127.0.0.1:${port}`, proc };
  };

  it('says in its first log line that it runs on the embedded SQLite store, and names the file', async () => {
    const { proc } = await start();
    expect(proc.logs[0]?.msg).to.equal(`orders service starting on the embedded SQLite store, file ${folder.path}`);
  });

  it('says in its first log line that it runs on the in-memory store with STORE=memory', async () => {
    const { proc } = await start({ STORE: 'memory' });
    expect(proc.logs[0]?.msg).to.match(/^orders service starting on the in-memory store/);
  });

  it('writes one JSON object per line: level by name, time in ISO 8601, msg, then the fields; no pid or hostname', async () => {
    const { url, proc } = await start();
    expect((await fetch(`${url}/healthz`, { headers: { 'x-request-id': 'format-1' } })).status).to.equal(200);
    proc.kill('SIGTERM');
    expect((await proc.exited).code).to.equal(0);
    const logs = proc.logs;
    expect(logs.map((line) => line.msg)).to.deep.equal([
      logs[0]?.msg,
      'listening',
      'worker started',
      'worker started',
      'worker started',
      'request',
      'shutting down',
      'stopped',
    ]);
    for (const line of logs) {
      expect(Object.keys(line).slice(0, 3)).to.deep.equal(['level', 'time', 'msg']);
      expect(line.level).to.equal('info');
      expect(new Date(String(line.time)).toISOString()).to.equal(line.time);
      expect(line).not.to.have.any.keys('pid', 'hostname');
    }
    expect(logs[5]).to.deep.include({ requestId: 'format-1', method: 'GET', route: '/healthz', status: 200 });
  });

  it('writes its log lines before it exits 1 when it cannot listen', async () => {
    const taken = createServer();
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
    try {
      const proc = new ServiceProcess({
        PORT: String((taken.address() as AddressInfo).port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        SQLITE_PATH: folder.path,
      });
      service = proc;
      expect((await proc.exited).code).to.equal(1);
      expect(proc.stderr.join('\n')).to.match(/failed to start: .*EADDRINUSE/);
      expect(proc.logs).to.have.length(1);
      expect(proc.logs[0]?.msg).to.match(/^orders service starting on the embedded/);
    } finally {
      await new Promise((done) => taken.close(done));
    }
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`stops on ${signal} after serving a request, logs 'stopped' and exits 0`, async () => {
      const { url, proc } = await start();
      const res = await fetch(`${url}/healthz`);
      expect(res.status).to.equal(200);
      proc.kill(signal);
      const exit = await proc.exited;
      expect(exit).to.deep.equal({ code: 0, signal: null });
      expect(proc.logs.map((l) => l.msg)).to.include('stopped');
      expect(proc.stderr.join('')).to.equal('');
    });
  }

  it('logs a promise rejected with nobody to handle it, by its name and code only, and goes on serving', async () => {
    const { url, proc } = await start({ NODE_OPTIONS: `--require "${STRAY_REJECTION}"` });
    proc.kill('SIGUSR2');
    const line = await proc.waitForLine((text) => text.includes('"msg":"unhandled rejection"'));
    expect(JSON.parse(line)).to.include({ level: 'error', errorName: 'Error', errorCode: 'EBUG' });
    expect(line).not.to.include('4111');
    expect((await fetch(`${url}/healthz`)).status).to.equal(200);
    proc.kill('SIGTERM');
    expect(await proc.exited).to.deep.equal({ code: 0, signal: null });
    expect(proc.stderr.join('')).to.equal('');
  });

  it('writes every line before it exits on SIGTERM, even while its log reader is stalled', async () => {
    const { url, proc } = await start({ NODE_OPTIONS: `--require "${NONBLOCKING_STDOUT}"` });
    proc.pauseStdout();
    const requestId = 'r'.repeat(128);
    for (let batch = 0; batch < STALLED_REQUESTS / 50; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, () => fetch(`${url}/healthz`, { headers: { 'x-request-id': requestId } })),
      );
      for (const answer of answers) expect(answer.status).to.equal(200);
    }
    proc.kill('SIGTERM');
    // The reader stays away while the service stops, then catches up; the lines still buffered in the
    // service must be waited for, not dropped at exit.
    await new Promise((done) => setTimeout(done, 1_000));
    proc.resumeStdout();
    expect(await proc.exited).to.deep.equal({ code: 0, signal: null });
    const logs = proc.logs;
    expect(logs.filter((line) => line.msg === 'request' && line.requestId === requestId)).to.have.length(STALLED_REQUESTS);
    expect(logs[0]?.msg).to.match(/embedded/);
    expect(logs.at(-1)?.msg).to.equal('stopped');
  });

  it('finishes a request in flight on SIGTERM before it exits 0', async () => {
    const { url, proc } = await start({ ADMIN_TOKEN: ADMIN, SHUTDOWN_TIMEOUT_MS: '8000' });
    const admin = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' };
    const created = await fetch(`${url}/admin/v1/dashboards`, { method: 'POST', headers: admin, body: '{"name":"shop"}' });
    const dashboard = (await created.json()) as { dashboard: { id: string } };
    const tokenPath = `${url}/admin/v1/dashboards/${dashboard.dashboard.id}/tokens`;
    const issued = (await (await fetch(tokenPath, { method: 'POST', headers: admin, body: '{}' })).json()) as { token: { token: string } };
    const inFlight = slowPost(url, '/api/v1/orders', issued.token.token, JSON.stringify(anOrderPayload()));
    await new Promise((done) => setTimeout(done, 300));
    proc.kill('SIGTERM');
    await proc.waitForLine((line) => line.includes('shutting down'));
    await new Promise((done) => setTimeout(done, 300));
    expect(await accepts(Number(new URL(url).port)), 'a new connection after SIGTERM').to.equal(false);
    inFlight.finish();
    expect(await inFlight.status).to.equal(201);
    expect((await proc.exited).code).to.equal(0);
    const messages = proc.logs.map((l) => `${String(l.msg)} ${typeof l.status === 'number' ? l.status : ''}`.trim());
    expect(messages.indexOf('request 201')).to.be.within(0, messages.indexOf('stopped'));
  });

  it('exits 1 with one clear line on stderr naming PORT when PORT=abc', async () => {
    const proc = new ServiceProcess({ PORT: 'abc' });
    service = proc;
    const exit = await proc.exited;
    expect(exit.code).to.equal(1);
    const lines = proc.stderr.filter((line) => line.trim() !== '');
    expect(lines).to.have.length(1);
    expect(lines[0]).to.include('PORT');
    expect(proc.stdout.filter((line) => line.trim() !== '')).to.deep.equal([]);
  });

  it('exits 1 with one line per bad variable', async () => {
    const proc = new ServiceProcess({ PORT: 'abc', LOG_LEVEL: 'chatty' });
    service = proc;
    expect((await proc.exited).code).to.equal(1);
    const lines = proc.stderr.filter((line) => line.trim() !== '');
    expect(lines).to.have.length(2);
    expect(lines.some((l) => l.includes('PORT'))).to.equal(true);
    expect(lines.some((l) => l.includes('LOG_LEVEL'))).to.equal(true);
  });
});
