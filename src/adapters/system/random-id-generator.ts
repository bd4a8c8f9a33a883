import type { IdGenerator } from '../../application/ports/id-generator';
import { randomBase62 } from './base62';

/** 22 base62 characters: about 131 random bits, opaque and unguessable. */
export class RandomIdGenerator implements IdGenerator {
  next(prefix: Parameters<IdGenerator['next']>[0]): string {
    return `${prefix}_${randomBase62(22)}`;
  }
}
