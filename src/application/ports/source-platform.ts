import type { SourcePlatformName } from '../../domain/source';
import type { SourceReading } from '../../domain/source-reading';

/** A delivery as it arrived: the body's bytes, untouched, and the headers by lower-case name. */
export interface SourceRequest {
  readonly body: Uint8Array;
  readonly headers: Readonly<Record<string, string | undefined>>;
}

export type SignatureCheck = { readonly valid: true } | { readonly valid: false; readonly reason: string };

/**
 * One checkout platform: how it signs a delivery and what its deliveries say (adapters/sources/<platform>).
 */
export interface SourcePlatform {
  /**
   * Checks the platform's signature over the raw body with `secret`, comparing in constant time,
   * before anything is parsed. Costs the same whether the signature is right or wrong.
   */
  verify(request: SourceRequest, secret: string, now: Date): SignatureCheck;

  /** What a verified delivery says; never throws (a body it cannot read is `refused`). */
  read(request: SourceRequest): SourceReading;
}

/** Every platform a source can be made for: a new one is a new entry. */
export type SourcePlatforms = Readonly<Record<SourcePlatformName, SourcePlatform>>;
