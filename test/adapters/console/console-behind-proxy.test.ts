import { expect } from 'chai';
import type { Config } from '../../../src/bootstrap/config';
import { ConsoleClient, type ConsoleResponse } from '../../support/console-client';
import { from, OWNER, startConsole, type ConsoleWorld } from '../../support/console-world';

const PUBLIC = 'https://orders.example';
/** What a TLS proxy in front sends with each request it passes on. */
const THROUGH_TLS = { host: 'orders.example', 'x-forwarded-proto': 'https' };
const WRONG = 'not the password!';

/** The attributes of a Set-Cookie line, lower-cased, with the cookie's name under `name`. */
const attributesOf = (line: string): Record<string, string> => {
  const [pair, ...rest] = line.split(';').map((part) => part.trim());
  const attributes: Record<string, string> = { name: pair.slice(0, pair.indexOf('=')) };
  for (const part of rest) {
    const [key, value = ''] = part.split('=');
    attributes[key.toLowerCase()] = value;
  }
  return attributes;
};

const sessionCookieOf = (res: ConsoleResponse): Record<string, string> => {
  const line = res.setCookies.find((cookie) => cookie.includes('orders_session='));
  expect(line, `a session cookie in ${JSON.stringify(res.setCookies)}`).to.not.equal(undefined);
  return attributesOf(line!);
};

/** decision 0023: behind a TLS proxy, cookies, origins, addresses and redirects are right. */
describe('the console behind a proxy (over HTTP)', () => {
  let world: ConsoleWorld;
  const start = async (config: Partial<Config>): Promise<void> => {
    world = await startConsole(config);
  };
  afterEach(async () => world?.api.stop());

  describe('with an https PUBLIC_BASE_URL', () => {
    it('names the session cookie __Host-orders_session, Secure, HttpOnly, SameSite=Lax, Path=/ and reads it back', async () => {
      await start({ publicBaseUrl: PUBLIC, trustProxy: 1 });
      const browser = new ConsoleClient(world.api.url, PUBLIC, THROUGH_TLS);
      const signedIn = await browser.signIn(OWNER.email, OWNER.password);
      expect(signedIn.status, signedIn.text).to.equal(303);
      const cookie = sessionCookieOf(signedIn);
      expect(cookie).to.include({ name: '__Host-orders_session', path: '/', samesite: 'lax' });
      expect(cookie).to.have.property('secure');
      expect(cookie).to.have.property('httponly');
      expect(cookie).not.to.have.property('domain');
      expect((await browser.get('/console/overview')).status).to.equal(200);
      const switched = await browser.post('/console/dashboard', { dashboardId: world.dashboardId });
      expect(switched.setCookies.map((line) => attributesOf(line).name)).to.deep.equal(['__Host-orders_dashboard']);
      const out = await browser.post('/console/sign-out', {});
      expect(out.status).to.equal(303);
      expect((await browser.get('/console/overview')).headers['location']).to.match(/^\/console\/sign-in/);
    });

    for (const [name, config, headers] of [
      ['a proxy that does not say https', { publicBaseUrl: PUBLIC, trustProxy: 1 }, { host: 'orders.example' }],
      ['TRUST_PROXY off', { publicBaseUrl: PUBLIC, trustProxy: 0 }, THROUGH_TLS],
    ] as const) {
      it(`signs in over the plain hop from the proxy with ${name}: a Secure cookie, never a 500`, async () => {
        await start(config);
        const browser = new ConsoleClient(world.api.url, PUBLIC, headers);
        const signedIn = await browser.signIn(OWNER.email, OWNER.password);
        expect(signedIn.status, signedIn.text).to.equal(303);
        expect(sessionCookieOf(signedIn)).to.include({ name: '__Host-orders_session' }).and.to.have.property('secure');
        expect((await browser.get('/console/overview')).status).to.equal(200);
      });
    }

    it('takes forms from PUBLIC_BASE_URL’s origin only, whatever Host or X-Forwarded-Host the request names', async () => {
      await start({ publicBaseUrl: PUBLIC, trustProxy: 1 });
      const forged = [
        new ConsoleClient(world.api.url, 'http://evil.example', { host: 'evil.example' }),
        new ConsoleClient(world.api.url, 'https://evil.example', { ...THROUGH_TLS, 'x-forwarded-host': 'evil.example' }),
        new ConsoleClient(world.api.url, `http://127.0.0.1:${new URL(world.api.url).port}`),
      ];
      for (const browser of forged) expect((await browser.signIn(OWNER.email, OWNER.password)).status).to.equal(403);
      const byReferer = new ConsoleClient(world.api.url, PUBLIC, THROUGH_TLS);
      expect(
        (await byReferer.signIn(OWNER.email, OWNER.password, { origin: '', referer: 'http://evil.example/console/sign-in' })).status,
      ).to.equal(403);
      expect((await byReferer.signIn(OWNER.email, OWNER.password, { origin: '', referer: `${PUBLIC}/console/sign-in` })).status).to.equal(
        303,
      );
      expect((await new ConsoleClient(world.api.url, PUBLIC, THROUGH_TLS).signIn(OWNER.email, OWNER.password)).status).to.equal(303);
    });
  });

  describe('the client’s address', () => {
    it('is the rightmost entry of X-Forwarded-For with TRUST_PROXY=1, whatever the client wrote to its left', async () => {
      await start({ publicBaseUrl: 'http://orders.test', trustProxy: 1 });
      const browser = () => new ConsoleClient(world.api.url, 'http://orders.test');
      for (let i = 0; i < 10; i++) {
        const res = await browser().signIn(OWNER.email, WRONG, from(`10.9.9.${i}, 198.51.100.30`));
        expect(res.status).to.equal(401);
      }
      expect((await browser().signIn(OWNER.email, OWNER.password, from('10.9.9.99, 198.51.100.30'))).status).to.equal(429);
      expect((await browser().signIn(OWNER.email, OWNER.password, from('198.51.100.31'))).status).to.equal(303);
    });

    it('is the second from the right with TRUST_PROXY=2', async () => {
      await start({ publicBaseUrl: 'http://orders.test', trustProxy: 2 });
      const browser = () => new ConsoleClient(world.api.url, 'http://orders.test');
      for (let i = 0; i < 10; i++) await browser().signIn(OWNER.email, WRONG, from(`10.9.9.${i}, 198.51.100.40, 10.0.0.${i}`));
      expect((await browser().signIn(OWNER.email, OWNER.password, from('198.51.100.40, 10.0.0.99'))).status).to.equal(429);
      expect((await browser().signIn(OWNER.email, OWNER.password, from('198.51.100.41, 10.0.0.1'))).status).to.equal(303);
    });

    it('is the connection’s with TRUST_PROXY off: X-Forwarded-For changes nothing', async () => {
      await start({});
      const browser = () => new ConsoleClient(world.api.url);
      for (let i = 0; i < 10; i++) await browser().signIn(OWNER.email, WRONG, from(`198.51.100.${50 + i}`));
      expect((await browser().signIn(OWNER.email, OWNER.password, from('198.51.100.99'))).status).to.equal(429);
    });

    it('counts an IPv6 client by its /64', async () => {
      await start({ publicBaseUrl: 'http://orders.test', trustProxy: 1 });
      const browser = () => new ConsoleClient(world.api.url, 'http://orders.test');
      for (let i = 0; i < 10; i++) await browser().signIn(OWNER.email, WRONG, from(`2001:db8:1:2::${i + 1}`));
      expect((await browser().signIn(OWNER.email, OWNER.password, from('2001:db8:1:2:ffff::1'))).status).to.equal(429);
      expect((await browser().signIn(OWNER.email, OWNER.password, from('2001:db8:1:3::1'))).status).to.equal(303);
    });
  });

  describe('sign-in’s next', () => {
    const LEAVING = [
      '/console/../l/abc',
      '/console/%2e%2e/l/abc',
      '/console/%2E%2E/l/abc',
      '/console/.%2e/l/abc',
      '/console/orders/..',
      '/console/./overview',
      '/console//evil.example',
      '/console/%2f%2fevil.example',
      '/console/%5c..%5cl',
      '/console\\..\\l',
      '//evil.example/console',
      'https://evil.example/console',
      '/consolex',
    ];

    it('goes to the Overview when next would leave the console once resolved, and to next when it stays', async () => {
      await start({});
      const browser = new ConsoleClient(world.api.url);
      for (const next of LEAVING) {
        const res = await browser.signIn(OWNER.email, OWNER.password, {}, next);
        expect(res.headers['location'], next).to.equal('/console/overview');
        const page = await browser.get(`/console/sign-in?next=${encodeURIComponent(next)}`);
        expect(page.text, next).to.contain('name="next" value="/console/overview"');
      }
      for (const next of ['/console/orders', '/console/orders/ord_1', '/console/webhooks/whk_a1/deliveries', '/console/caf%C3%A9'])
        expect((await browser.signIn(OWNER.email, OWNER.password, {}, next)).headers['location'], next).to.equal(next);
    });
  });
});
