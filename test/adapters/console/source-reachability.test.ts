import { expect } from 'chai';
import { unreachableBecause } from '../../../src/adapters/console/sources/reachability';

const LISTENING = 'http://127.0.0.1:3000';

describe('whether a platform can reach the URL a source hands out', () => {
  it('says nothing of a public https address, by name or by number', () => {
    for (const base of [
      'https://orders.example.com',
      'https://orders.example.com:8443/prefix',
      'https://203.0.113.7',
      'https://172.32.0.1',
      'https://[2001:db8::1]',
    ])
      expect(unreachableBecause(base, LISTENING), base).to.equal(undefined);
  });

  it('names PUBLIC_BASE_URL when it is unset, with the address the URL is then made of', () => {
    expect(unreachableBecause(undefined, LISTENING)).to.equal(
      'PUBLIC_BASE_URL is not set, so the URL is made of the address this service listens on (http://127.0.0.1:3000), which the platform’s servers do not know.',
    );
  });

  it('tells a loopback address, a private one and a local name apart, IPv4 written as IPv6 included', () => {
    const own = (host: string) => `${host} is this machine’s own address: on the platform’s servers it means the platform itself.`;
    const privately = (host: string) => `${host} is an address of a private network, which the platform’s servers cannot reach.`;
    expect(unreachableBecause('http://127.0.0.1:3000', LISTENING)).to.equal(own('127.0.0.1'));
    expect(unreachableBecause('https://127.8.9.10', LISTENING)).to.equal(own('127.8.9.10'));
    expect(unreachableBecause('https://LocalHost:3000', LISTENING)).to.equal(own('localhost'));
    expect(unreachableBecause('https://shop.localhost', LISTENING)).to.equal(own('shop.localhost'));
    expect(unreachableBecause('https://[::1]', LISTENING)).to.equal(own('::1'));
    expect(unreachableBecause('https://[::ffff:127.0.0.1]', LISTENING)).to.equal(own('::ffff:7f00:1'));
    for (const host of ['10.0.0.8', '172.16.4.1', '172.31.255.255', '192.168.1.20', '169.254.1.1', '100.64.0.1', '0.0.0.0'])
      expect(unreachableBecause(`https://${host}`, LISTENING), host).to.equal(privately(host));
    expect(unreachableBecause('https://[fd12:3456::1]', LISTENING)).to.equal(privately('fd12:3456::1'));
    expect(unreachableBecause('https://[fe80::1]', LISTENING)).to.equal(privately('fe80::1'));
    expect(unreachableBecause('https://[::ffff:192.168.0.1]', LISTENING)).to.equal(privately('::ffff:c0a8:1'));
    for (const host of ['nas.local', 'orders.internal', 'router.home.arpa', 'intranet'])
      expect(unreachableBecause(`https://${host}`, LISTENING), host).to.equal(`${host} is a name that only a local network knows.`);
  });

  it('says that a public address over plain http is refused by Shopify and Stripe', () => {
    expect(unreachableBecause('http://orders.example.com', LISTENING)).to.equal(
      'It is http, not https: Shopify and Stripe (in live mode) post only to https URLs, and what is sent over http can be read on the way.',
    );
  });
});
