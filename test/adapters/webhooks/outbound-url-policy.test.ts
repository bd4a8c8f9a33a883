import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import { OutboundUrlPolicy, PRIVATE_URLS_HINT } from '../../../src/adapters/webhooks/outbound-url-policy';
import { fakeResolver } from '../../support/fake-resolver';
import { inUrl, nameFor, REFUSED_ADDRESSES } from '../../support/refused-addresses';

describe('outbound URL policy (when an endpoint is saved)', () => {
  const resolver = fakeResolver({
    'hooks.example.com': ['93.184.216.34'],
    'v6.example.com': ['2606:4700::1111'],
    'mixed.example.com': ['93.184.216.34', '10.0.0.7'],
  });
  for (const [, address] of REFUSED_ADDRESSES) resolver.table[nameFor(address)] = [address];
  const policy = new OutboundUrlPolicy({ allowPrivateUrls: false, resolver });

  const refusal = async (url: string): Promise<string | undefined> => {
    const checked = await policy.check(url);
    return E.isLeft(checked) ? checked.left.reason : undefined;
  };

  for (const [what, address] of REFUSED_ADDRESSES) {
    it(`refuses ${what} (${address}) written as the host`, async () => {
      expect(await refusal(inUrl(address))).to.match(new RegExp(`^The URL's address ${address.replace(/\./g, '\\.')} is `));
    });

    it(`refuses a host name that resolves to ${what} (${address})`, async () => {
      const host = nameFor(address);
      expect(await refusal(`https://${host}/hook`)).to.equal(
        `The URL's host ${host} resolves to ${address}, ${(await refusal(inUrl(address)))!.replace(/^The URL's address \S+ is /, '')}`,
      );
    });
  }

  it('names the class of the address it refuses', async () => {
    expect(await refusal('https://127.0.0.1/')).to.equal(`The URL's address 127.0.0.1 is a loopback address: ${PRIVATE_URLS_HINT}`);
    expect(await refusal('https://169.254.169.254/')).to.equal(
      `The URL's address 169.254.169.254 is a link-local address (where cloud metadata services live): ${PRIVATE_URLS_HINT}`,
    );
    expect(await refusal('https://100.64.0.1/')).to.equal(
      `The URL's address 100.64.0.1 is a carrier-grade NAT address: ${PRIVATE_URLS_HINT}`,
    );
    expect(await refusal('https://[fc00::1]/')).to.equal(`The URL's address fc00::1 is a unique-local address: ${PRIVATE_URLS_HINT}`);
  });

  it('refuses a host name of which any one address is refused', async () => {
    expect(await refusal('https://mixed.example.com/hook')).to.equal(
      `The URL's host mixed.example.com resolves to 10.0.0.7, a private address: ${PRIVATE_URLS_HINT}`,
    );
  });

  it('fails closed: refuses a host name that does not resolve', async () => {
    expect(await refusal('https://nowhere.example.com/hook')).to.equal("The URL's host nowhere.example.com does not resolve");
  });

  it('allows public addresses, written or resolved', async () => {
    for (const url of [
      'https://93.184.216.34/hook',
      'https://[2606:4700::1111]:8443/x?y=1',
      'https://hooks.example.com/orders',
      'https://v6.example.com',
    ]) {
      expect(await refusal(url), url).to.equal(undefined);
    }
  });

  it('refuses http:// whatever the host', async () => {
    expect(await refusal('http://hooks.example.com/orders')).to.equal(
      'The URL must be https:// (http:// is allowed only when the service runs with WEBHOOK_ALLOW_PRIVATE_URLS=true, for development)',
    );
  });

  it('allows everything, without resolving, with WEBHOOK_ALLOW_PRIVATE_URLS=true', async () => {
    const open = new OutboundUrlPolicy({ allowPrivateUrls: true, resolver });
    const before = resolver.calls.length;
    for (const url of ['http://127.0.0.1:8080/hook', 'https://[::1]/', 'https://169.254.169.254/', 'http://nowhere.example.com/']) {
      expect(E.isRight(await open.check(url)), url).to.equal(true);
    }
    expect(resolver.calls.length).to.equal(before);
  });
});
