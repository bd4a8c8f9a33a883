import { createHash, timingSafeEqual } from 'node:crypto';
import type { TokenSecrets } from '../../application/ports/token-secrets';
import { randomBase62 } from './base62';

const PREFIX = 'ok_live_';
/** 43 base62 characters: about 256 random bits. */
const RANDOM_LENGTH = 43;
/** What `generate` makes; anything else is refused without a look-up. */
export const TOKEN_SHAPE = new RegExp(`^${PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH}}$`);

/** Tokens `ok_live_<43 base62>`, stored as SHA-256: enough for secrets of 256 random bits. */
export class Sha256TokenSecrets implements TokenSecrets {
  generate(): string {
    return PREFIX + randomBase62(RANDOM_LENGTH);
  }

  isWellFormed(plain: string): boolean {
    return TOKEN_SHAPE.test(plain);
  }

  hash(plain: string): string {
    return createHash('sha256').update(plain, 'utf8').digest('hex');
  }

  sameHash(a: string, b: string): boolean {
    const left = Buffer.from(a, 'utf8');
    const right = Buffer.from(b, 'utf8');
    return left.length === right.length && timingSafeEqual(left, right);
  }
}
