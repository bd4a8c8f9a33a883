/** Makes the slugs of short links: `SLUG_LENGTH` random characters of [0-9A-Za-z] (src/domain/link.ts). */
export interface SlugGenerator {
  next(): string;
}
