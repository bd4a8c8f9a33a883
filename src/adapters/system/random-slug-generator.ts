import type { SlugGenerator } from '../../application/ports/slug-generator';
import { SLUG_LENGTH } from '../../domain/link';
import { randomBase62 } from './base62';

/** `SLUG_LENGTH` (11) base62 characters from a cryptographic source: about 65 random bits. */
export class RandomSlugGenerator implements SlugGenerator {
  next(): string {
    return randomBase62(SLUG_LENGTH);
  }
}
