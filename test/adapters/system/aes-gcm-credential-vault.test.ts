import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import { AesGcmCredentialVault, credentialsKeyOf } from '../../../src/adapters/system/aes-gcm-credential-vault';

const KEY = credentialsKeyOf('0f1e2d3c4b5a69788796a5b4c3d2e1f00112233445566778899aabbccddeeff0')!;
const OTHER = credentialsKeyOf(Buffer.alloc(32, 7).toString('base64'))!;

describe('credentials encrypted at rest (AES-256-GCM)', () => {
  const vault = new AesGcmCredentialVault(KEY);
  const credentials = { accessToken: 'EAAB-very-secret-token' };

  it('takes a key of 32 bytes in hex or base64, and nothing else', () => {
    expect(credentialsKeyOf(Buffer.alloc(32, 1).toString('base64'))).to.have.length(32);
    expect(credentialsKeyOf(Buffer.alloc(32, 1).toString('base64url'))).to.have.length(32);
    expect(credentialsKeyOf('ab'.repeat(32))).to.have.length(32);
    for (const wrong of ['ab'.repeat(31), Buffer.alloc(16).toString('base64'), 'not a key', ''])
      expect(credentialsKeyOf(wrong)).to.equal(undefined);
  });

  it('seals with a fresh nonce, never in the clear, and opens for the same record only', () => {
    const sealed = vault.seal(credentials, 'ad-account/dsh_a/ada_1');
    expect(sealed)
      .to.match(/^v1\.[0-9a-f]{8}\./)
      .and.not.contain('secret');
    expect(Buffer.from(sealed.split('.')[3], 'base64url').toString('latin1')).to.not.contain('secret');
    expect(vault.seal(credentials, 'ad-account/dsh_a/ada_1')).to.not.equal(sealed);
    expect(vault.open(sealed, 'ad-account/dsh_a/ada_1')).to.deep.equal(E.right(credentials));
    expect(E.isLeft(vault.open(sealed, 'ad-account/dsh_b/ada_1'))).to.equal(true);
  });

  it('refuses an altered value, another key, and a service without a key, in words that hold nothing of them', () => {
    const sealed = vault.seal(credentials, 'ctx');
    const [v, id, iv, body] = sealed.split('.') as [string, string, string, string];
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] = flipped[0] ^ 1;
    const altered = vault.open([v, id, iv, flipped.toString('base64url')].join('.'), 'ctx');
    expect(E.isLeft(altered) && altered.left).to.contain('do not decrypt');
    const other = new AesGcmCredentialVault(OTHER).open(sealed, 'ctx');
    expect(E.isLeft(other) && other.left).to.contain('another CREDENTIALS_KEY');
    const none = new AesGcmCredentialVault(undefined);
    expect(none.available).to.equal(false);
    expect(E.isLeft(none.open(sealed, 'ctx')) && (none.open(sealed, 'ctx') as E.Left<string>).left).to.contain('without CREDENTIALS_KEY');
    expect(() => none.seal(credentials, 'ctx')).to.throw('CREDENTIALS_KEY');
  });
});
