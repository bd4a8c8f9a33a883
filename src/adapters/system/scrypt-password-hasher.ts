import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { OpaqueSecrets, PasswordHasher } from '../../application/ports/password-hasher';

/**
 * OWASP's scrypt parameters (Password Storage Cheat Sheet): N = 2^17, r = 8, p = 1, 128 MiB per hash.
 * Tests pass cheaper ones; the stored form carries its own parameters, so they can be raised later
 * and old hashes still verify.
 */
export interface ScryptParameters {
  readonly logN: number;
  readonly r: number;
  readonly p: number;
}

export const OWASP_SCRYPT: ScryptParameters = { logN: 17, r: 8, p: 1 };

const KEY_LENGTH = 32;

const derive = (password: string, salt: Buffer, { logN, r, p }: ScryptParameters): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const options: ScryptOptions = { N: 2 ** logN, r, p, maxmem: 256 * 2 ** logN * r + 16 * 2 ** 20 };
    // node:crypto runs scrypt on libuv's thread pool: the event loop goes on meanwhile.
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (err, key) => (err === null ? resolve(key) : reject(err)));
  });

/**
 * Passwords as `scrypt$<logN>$<r>$<p>$<salt>$<key>` (base64url), from node:crypto: no native package
 * to build, memory-hard, and a format that names its own cost.
 */
export class ScryptPasswordHasher implements PasswordHasher {
  /** A hash of a random password, made at the first unknown email, for verifyNothing to work against. */
  private dummy: Promise<string> | undefined;

  constructor(private readonly parameters: ScryptParameters = OWASP_SCRYPT) {}

  async hash(password: string): Promise<string> {
    const salt = randomBytes(16);
    const key = await derive(password, salt, this.parameters);
    const { logN, r, p } = this.parameters;
    return ['scrypt', logN, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
  }

  async verify(password: string, stored: string): Promise<boolean> {
    const parts = stored.split('$');
    if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
    const [logN, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
    if (![logN, r, p].every((n) => Number.isInteger(n) && n > 0) || logN > 22) return false;
    const expected = Buffer.from(parts[5], 'base64url');
    const key = await derive(password, Buffer.from(parts[4], 'base64url'), { logN, r, p });
    return key.length === expected.length && timingSafeEqual(key, expected);
  }

  async verifyNothing(password: string): Promise<void> {
    this.dummy ??= this.hash(randomBytes(18).toString('base64url'));
    await this.verify(password, await this.dummy);
  }
}

/** Session ids and invitation tokens: 32 random bytes, base64url; stored as SHA-256 hex. */
export class RandomOpaqueSecrets implements OpaqueSecrets {
  generate(): string {
    return randomBytes(32).toString('base64url');
  }

  hash(plain: string): string {
    return createHash('sha256').update(plain, 'utf8').digest('hex');
  }
}
