import { createServer, type AddressInfo, type Server } from 'node:net';
import { expect } from 'chai';
import { createOrder, useApi, type StorageFactory } from '../harness';
import { expectProblem } from '../problem-assertions';
import { fakeResolver } from '../../support/fake-resolver';
import { inUrl, nameFor, REFUSED_ADDRESSES } from '../../support/refused-addresses';
import { eventually } from '../../support/webhook-receiver';
import { createWebhook, deliveriesOf, readWebhook, WEBHOOKS } from './webhook-support';

/**
 * Outbound safety as the service applies it (decision 0012), with its default WEBHOOK_ALLOW_PRIVATE_URLS
 * (false) and a resolver the test controls in place of DNS.
 */
export const webhookOutboundBehaviour = (storageFactory: StorageFactory): void => {
  describe('webhook outbound safety', () => {
    const resolver = fakeResolver({ 'hooks.example.com': ['93.184.216.34'], 'rebinding.example.com': ['93.184.216.35'] });
    for (const [, address] of REFUSED_ADDRESSES) resolver.table[nameFor(address)] = [address];
    const h = useApi(storageFactory, {
      resolver,
      config: { webhooks: { timeoutMs: 2_000, retrySchedule: [0, 0], allowPrivateUrls: false, concurrency: 4, pollIntervalMs: 100 } },
    });
    const post = (url: string) => h.api.request('POST', WEBHOOKS, { token: h.token, body: { url } });

    for (const [what, address] of REFUSED_ADDRESSES) {
      it(`refuses to save ${what} (${address}), written as the host or resolved from a name: 422 WEBHOOK_URL_NOT_ALLOWED`, async () => {
        const literal = expectProblem(await post(inUrl(address)), 422, 'WEBHOOK_URL_NOT_ALLOWED');
        expect(literal.detail).to.include(`address ${address} is `);
        const named = expectProblem(await post(`https://${nameFor(address)}/hook`), 422, 'WEBHOOK_URL_NOT_ALLOWED');
        expect(named.detail).to.equal(
          `The URL's host ${nameFor(address)} resolves to ${address}, ${literal.detail.replace(/^.* is /, '')}`,
        );
        expect((await h.api.request('GET', WEBHOOKS, { token: h.token })).body.webhooks).to.deep.equal([]);
      });
    }

    it('refuses http://, and a host that does not resolve; saves a public https:// URL', async () => {
      expect(expectProblem(await post('http://hooks.example.com/x'), 422, 'WEBHOOK_URL_NOT_ALLOWED').detail).to.equal(
        'The URL must be https:// (http:// is allowed only when the service runs with WEBHOOK_ALLOW_PRIVATE_URLS=true, for development)',
      );
      expect(expectProblem(await post('https://nowhere.example.com/x'), 422, 'WEBHOOK_URL_NOT_ALLOWED').detail).to.equal(
        "The URL's host nowhere.example.com does not resolve",
      );
      expect((await post('https://hooks.example.com/x')).status).to.equal(201);
    });

    it('refuses to change a URL to a refused one, and keeps the endpoint as it was', async () => {
      const endpoint = await createWebhook(h, { url: 'https://hooks.example.com/x' });
      const res = await h.api.request('PATCH', `${WEBHOOKS}/${endpoint.id}`, {
        token: h.token,
        body: { url: 'https://169.254.169.254/latest/meta-data', description: 'x' },
      });
      expectProblem(res, 422, 'WEBHOOK_URL_NOT_ALLOWED');
      expect((await readWebhook(h, endpoint.id)).url).to.equal('https://hooks.example.com/x');
    });

    describe('against DNS rebinding', () => {
      let inside: Server;
      let connections = 0;
      before(async () => {
        inside = createServer((socket) => {
          connections += 1;
          socket.destroy();
        });
        await new Promise<void>((resolve) => inside.listen(0, '127.0.0.1', resolve));
      });
      after(() => new Promise<void>((resolve) => inside.close(() => resolve())));

      it('checks the address actually connected to: a name saved as public and resolving to loopback now reaches nothing', async () => {
        const port = (inside.address() as AddressInfo).port;
        resolver.table['rebinding.example.com'] = ['93.184.216.35'];
        const endpoint = await createWebhook(h, { url: `https://rebinding.example.com:${port}/hook` });
        resolver.table['rebinding.example.com'] = ['127.0.0.1'];
        await createOrder(h, { externalId: 'rebound' });
        const delivery = await eventually('the delivery failed', async () => {
          const [found] = (await deliveriesOf(h, endpoint.id)).deliveries;
          return found?.status === 'failed' ? found : undefined;
        });
        expect(delivery.attempts.map((a: { error: string }) => a.error)).to.deep.equal(
          Array(3).fill('address not allowed: 127.0.0.1 is a loopback address'),
        );
        expect(connections).to.equal(0);
      });
    });
  });
};
