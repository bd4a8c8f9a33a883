import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import * as E from 'fp-ts/Either';
import type { CredentialVault } from '../../application/ports/credential-vault';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * CREDENTIALS_KEY as the service takes it: 32 random bytes written as 64 hexadecimal digits or in
 * base64 (`openssl rand -base64 32`). Undefined when it is neither.
 */
export const credentialsKeyOf = (text: string): Buffer | undefined => {
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) {
    const key = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    return key.length === 32 ? key : undefined;
  }
  return undefined;
};

/** A short name of a key that reveals nothing of it, written beside each sealed value: a value sealed with another key is told apart. */
const keyIdOf = (key: Buffer): string =>
  createHash('sha256').update('orders-service credentials key').update(key).digest('hex').slice(0, 8);

/**
 * AES-256-GCM with a random 96-bit nonce per value and the record's context as additional data:
 * `v1.<key id>.<nonce>.<ciphertext and tag>` (base64url). Tampering, another key or another record
 * make `open` fail; nothing of the credentials reaches a message.
 */
export class AesGcmCredentialVault implements CredentialVault {
  readonly available: boolean;
  private readonly keyId: string;

  constructor(private readonly key: Buffer | undefined) {
    this.available = key !== undefined;
    this.keyId = key === undefined ? '' : keyIdOf(key);
  }

  seal(credentials: object, context: string): string {
    if (this.key === undefined) throw new Error('CREDENTIALS_KEY is not set');
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const sealed = Buffer.concat([cipher.update(JSON.stringify(credentials), 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return [VERSION, this.keyId, iv.toString('base64url'), sealed.toString('base64url')].join('.');
  }

  open(sealed: string, context: string): E.Either<string, unknown> {
    if (this.key === undefined) return E.left('the service runs without CREDENTIALS_KEY');
    const [version, keyId, iv, body] = sealed.split('.');
    if (version !== VERSION || iv === undefined || body === undefined)
      return E.left('they are not in a form this version of the service reads');
    if (keyId !== this.keyId)
      return E.left('they were encrypted with another CREDENTIALS_KEY: set that key again, or enter the credentials anew');
    try {
      const bytes = Buffer.from(body, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      const plain = Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)), decipher.final()]);
      return E.right(JSON.parse(plain.toString('utf8')));
    } catch {
      return E.left('they do not decrypt with CREDENTIALS_KEY (altered, or belonging to another account): enter them again');
    }
  }
}
