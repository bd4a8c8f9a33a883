import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';

/** One encoding of a file, ready to send: its bytes and a strong entity tag of its own (RFC 9110 §8.8.3). */
export interface Representation {
  readonly bytes: Buffer;
  readonly etag: string;
}

/**
 * A file served as it is, prepared once: as it is and gzipped (level 9). The two encodings are two
 * representations, so each has its strong tag: the same hash, with `-gzip` on the compressed one.
 */
export interface StaticAsset {
  readonly identity: Representation;
  readonly gzip: Representation;
}

export const prepareAsset = (bytes: Buffer): StaticAsset => {
  const hash = createHash('sha256').update(bytes).digest('base64url').slice(0, 32);
  return { identity: { bytes, etag: `"${hash}"` }, gzip: { bytes: gzipSync(bytes, { level: 9 }), etag: `"${hash}-gzip"` } };
};

/**
 * Whether an `Accept-Encoding` value takes gzip (RFC 9110 §12.5.3): `gzip` (or its alias `x-gzip`)
 * with a weight above 0, or else `*` with a weight above 0. A weight that is not a number counts as 0.
 */
export const acceptsGzip = (acceptEncoding: string | undefined): boolean => {
  let gzip: number | undefined;
  let any: number | undefined;
  for (const member of (acceptEncoding ?? '').split(',')) {
    const [coding = '', ...params] = member.split(';').map((part) => part.trim().toLowerCase());
    const q = params.find((param) => /^q\s*=/.test(param));
    const weight = q === undefined ? 1 : Number(q.slice(q.indexOf('=') + 1).trim() || 'x');
    const usable = Number.isFinite(weight) ? weight : 0;
    if (coding === 'gzip' || coding === 'x-gzip') gzip = Math.max(gzip ?? 0, usable);
    else if (coding === '*') any = Math.max(any ?? 0, usable);
  }
  return (gzip ?? any ?? 0) > 0;
};

/**
 * Whether an `If-None-Match` value names `etag` by weak comparison (`W/"x"` matches `"x"`), or is
 * `*`: then a GET answers 304 (RFC 9110 §13.1.2). Anything that is not an entity tag is ignored.
 */
export const noneMatch = (ifNoneMatch: string | undefined, etag: string): boolean => {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() === '*') return true;
  // The quoted part of each tag, so `W/"x"` compares as `"x"`.
  return [...ifNoneMatch.matchAll(/"[^"]*"/g)].some(([quoted]) => quoted === etag);
};
